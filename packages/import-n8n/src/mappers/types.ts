import type { ExpressionContext } from "../expressions";
import type { N8nNode } from "../n8n-format";

/** What a mapper gets: the n8n node, its new id, expression translation and the report. */
export interface MapContext extends ExpressionContext {
  n8n: N8nNode;
  id: string;
  /** Parameters of the n8n node (defaults applied by the caller: `{}` when absent). */
  params: Record<string, unknown>;
  /** Translates one parameter value (expressions included). */
  value(v: unknown, field: string): unknown;
  /** Our credential id for the n8n credential of this type, or undefined (reported as a problem). */
  credential(n8nCredentialType: string): string | undefined;
  /** Our flow id for an n8n workflow id the caller mapped, or undefined. */
  subflow(n8nWorkflowId: string): string | undefined;
  loss(field: string | undefined, message: string): void;
}

/** A node a mapper produced. */
export interface Mapped {
  type: string;
  config: Record<string, unknown>;
  /** n8n output index → our port (default: `main` for index 0). */
  outputs?: readonly string[];
  /** n8n input index → our port (default: `main`). */
  inputs?: readonly string[];
  /**
   * A node inserted after this one that reshapes its output into n8n's (the HTTP request's body
   * unwrap): edges from the n8n node start there, and references to the n8n node read it.
   */
  after?: { idSuffix: string; type: string; name: string; config: Record<string, unknown> };
}

/** Undefined asks for a placeholder, with the reason. */
export type Mapper = (ctx: MapContext) => Mapped | { unsupported: string };

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
export const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
/** The value of n8n's resource locator (`{ __rl: true, value, mode }`) or the plain value. */
export const locatorValue = (v: unknown): unknown => (obj(v).__rl ? obj(v).value : v);
