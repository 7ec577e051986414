export * from "./contract";
export * from "./errors";
export * from "./executor/machine";
export * from "./executor/node-runner";
export * from "./executor/retry";
export * from "./executor/run-flow";
export * from "./executor/step-store";
export * from "./executor/types";
export * from "./expressions/evaluator";
export * from "./expressions/resolve";
export * from "./expressions/template";
export * from "./flow/graph";
// The flow model lives in @switchyard/contracts (zod only, also read by the web app); re-exported unchanged.
export * from "@switchyard/contracts/flow";
export * from "./validate/config-check";
export * from "./validate/validate-flow";
export * from "./expressions/raw-fields";
export * from "./json/depth";
export { InFlight, TransientMap } from "./util/transient-map";
