/** What an import tells its user: every node's mapping, every loss, every problem left to resolve. */

export interface NodeMapping {
  /** The n8n node's name and type. */
  n8nName: string;
  n8nType: string;
  n8nTypeVersion: number;
  /** The Switchyard node it became (a sticky note becomes a note: its id, type `note`). */
  id: string;
  type: string;
  status: "mapped" | "placeholder" | "note";
}

/** Something the n8n node said that the Switchyard flow does not express (the flow still works). */
export interface ImportLoss {
  node?: string;
  field?: string;
  message: string;
}

export type ImportProblemCode =
  | "unsupported_node"
  | "credential_unresolved"
  | "expression_untranslated"
  | "subflow_unresolved"
  | "connection_dropped";

/** Something a person must resolve before the flow can be activated or trusted to behave as in n8n. */
export interface ImportProblem {
  code: ImportProblemCode;
  node?: string;
  field?: string;
  message: string;
}

export interface ImportReport {
  source: "n8n";
  workflowName: string;
  nodes: NodeMapping[];
  losses: ImportLoss[];
  problems: ImportProblem[];
}

/** Collects the report while mappers run; each finding is told once. */
export class ReportBuilder {
  readonly nodes: NodeMapping[] = [];
  readonly losses: ImportLoss[] = [];
  readonly problems: ImportProblem[] = [];

  loss(node: string | undefined, field: string | undefined, message: string) {
    this.losses.push({ ...(node ? { node } : {}), ...(field ? { field } : {}), message });
  }

  problem(code: ImportProblemCode, node: string | undefined, field: string | undefined, message: string) {
    this.problems.push({ code, ...(node ? { node } : {}), ...(field ? { field } : {}), message });
  }
}

/** The report as plain text lines (the CLI prints them; the web page shows the same sections). */
export function formatReport(report: ImportReport): string[] {
  const lines = [`n8n workflow "${report.workflowName}": ${report.nodes.length} nodes`];
  for (const n of report.nodes) {
    const what = n.status === "placeholder" ? `PLACEHOLDER (${n.type})` : n.type;
    lines.push(`  ${n.n8nName} [${n.n8nType} v${n.n8nTypeVersion}] → ${n.id}: ${what}`);
  }
  lines.push(`losses: ${report.losses.length}`);
  for (const l of report.losses) lines.push(`  ${where(l)}${l.message}`);
  lines.push(`problems to resolve before activating: ${report.problems.length}`);
  for (const p of report.problems) lines.push(`  ${where(p)}${p.message} [${p.code}]`);
  return lines;
}

const where = (f: { node?: string; field?: string }) =>
  f.node ? `${f.node}${f.field ? ` (${f.field})` : ""}: ` : f.field ? `${f.field}: ` : "";
