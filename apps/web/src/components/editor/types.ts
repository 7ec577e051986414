/**
 * The editor's view of the flow file format (packages/engine flow/schema.ts is the truth). Kept as plain
 * types here so the browser bundle never pulls the engine or the node packages in.
 */
export interface XY {
  x: number;
  y: number;
}

export interface EditorNode {
  id: string;
  type: string;
  typeVersion: number;
  name: string;
  config: Record<string, unknown>;
  position: XY;
  disabled?: boolean;
  retry?: { maxAttempts: number; backoff?: "fixed" | "exponential"; delayMs: number; maxDelayMs?: number };
  timeoutMs?: number;
  onError: "stop" | "continue" | "route";
}

export interface EdgeEnd {
  node: string;
  port: string;
}

export interface EditorEdge {
  id?: string;
  from: EdgeEnd;
  to: EdgeEnd;
}

export interface EditorNote {
  id: string;
  text: string;
  position: XY;
  size?: { width: number; height: number };
}

export interface FlowSettings {
  timezone: string;
  maxRunMs: number;
  concurrency: number;
  errorFlowId?: string;
}

/** One item of pinned data (the engine's PinnedItem). */
export interface PinnedItem {
  json: Record<string, unknown>;
  binary?: Record<string, unknown>;
}

/** One snapshot of the document; the undo history is a list of these. */
export interface FlowDoc {
  nodes: EditorNode[];
  edges: EditorEdge[];
  notes: EditorNote[];
  settings: FlowSettings;
  /** Node id → items the node answers with in editor runs instead of executing. */
  pinData?: Record<string, PinnedItem[]>;
}

/** A problem reported by the engine's validateFlow. */
export interface Problem {
  code: string;
  message: string;
  nodeId?: string;
  edgeId?: string;
  field?: string;
}

/** The validator names the node (and field) in its message; shown on that node or field it is noise. */
export function shortMessage(p: Problem): string {
  const field = /^node "[^"]*" field "([^"]*)"(.*)$/.exec(p.message);
  if (field) return (field[2] ?? "").replace(/^: /, "") || p.message;
  return p.message.replace(/^node "[^"]*"(: )?/, "") || p.message;
}

/** JSON Schema subset the form generator understands (from z.toJSONSchema(config, { io: "input" })). */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  contentMediaType?: string;
}

/** One entry of `catalogue.list` (the nodes package's catalogue()). */
export interface CatalogueEntry {
  type: string;
  typeVersion: number;
  kind: "action" | "trigger";
  title: string;
  description: string;
  category: string;
  icon: string;
  ports: string[];
  inputs: string[];
  configSchema: JsonSchema;
  example: unknown;
}

export type NodeRunStatus = "pending" | "running" | "succeeded" | "failed" | "skipped" | "waiting";

/** React Flow id of an edge: its own id, or one derived from its ends (unique because duplicates are refused). */
export function edgeKey(edge: EditorEdge): string {
  return edge.id ?? `${edge.from.node}:${edge.from.port}->${edge.to.node}:${edge.to.port}`;
}

/** Notes share the canvas with nodes; a prefix keeps their ids apart. */
export const NOTE_PREFIX = "note:";
