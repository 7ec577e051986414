export {
  type FlowFile,
  type ImportOptions,
  type ImportResult,
  importN8nWorkflow,
  N8nImportError,
  readN8nWorkflow,
} from "./import";
export { jsToJsonata } from "./js-to-jsonata";
export {
  formatReport,
  type ImportLoss,
  type ImportProblem,
  type ImportReport,
  type NodeMapping,
} from "./report";
