/**
 * The flow file format. zod is the single source of truth: TypeScript types, `parseFlow`, the published
 * JSON Schema and the editor's defaults all come from these definitions (the engine re-exports them).
 */
import { z } from "zod";

export const Position = z.object({ x: z.number(), y: z.number() });
export type Position = z.infer<typeof Position>;

export const RetryPolicy = z.object({
  /** Total attempts including the first one. */
  maxAttempts: z.int().min(1).max(100),
  backoff: z.enum(["fixed", "exponential"]).default("fixed"),
  delayMs: z.int().min(0).max(86_400_000),
  maxDelayMs: z.int().min(0).max(86_400_000).optional(),
  /** Random spread added to each delay, as a fraction of it (0..1). `true` means 0.5. */
  jitter: z.union([z.boolean(), z.number().min(0).max(1)]).optional(),
});
export type RetryPolicy = z.infer<typeof RetryPolicy>;

export const OnError = z.enum(["stop", "continue", "route"]);
export type OnError = z.infer<typeof OnError>;

const idString = z.string().min(1).max(200);

export const FlowNode = z.object({
  id: idString,
  type: z.string().min(1).max(200),
  typeVersion: z.int().min(1).default(1),
  name: z.string().max(500).default(""),
  config: z.record(z.string(), z.unknown()).default({}),
  position: Position.default({ x: 0, y: 0 }),
  disabled: z.boolean().optional(),
  retry: RetryPolicy.optional(),
  timeoutMs: z.int().min(1).max(86_400_000).optional(),
  onError: OnError.default("stop"),
});
export type FlowNode = z.infer<typeof FlowNode>;

export const EdgeEnd = z.object({ node: idString, port: z.string().min(1).max(200).default("main") });

export const FlowEdge = z.object({
  id: idString.optional(),
  from: EdgeEnd,
  to: EdgeEnd,
});
export type FlowEdge = z.infer<typeof FlowEdge>;

export const FailureEmail = z.object({
  credentialId: z.string().min(1).max(200).describe("SMTP credential the alert is sent through"),
  to: z
    .array(
      z
        .string()
        .max(320)
        .regex(/^[^@\s]+@[^@\s]+$/, "not an e-mail address"),
    )
    .min(1)
    .max(20)
    .describe("Addresses told about each failed run"),
});
export type FailureEmail = z.infer<typeof FailureEmail>;

/** Whether Intl knows this IANA time zone (e.g. "Europe/Berlin", "UTC"). */
export function isTimeZone(tz: string): boolean {
  if (tz.trim() === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const FlowSettings = z.object({
  /**
   * IANA time zone used by schedule triggers and date expressions. Checked here, at save: an unknown one used to be
   * found only when a schedule was bound.
   */
  timezone: z
    .string()
    .min(1)
    .refine(isTimeZone, {
      error: (i) => `Unknown time zone "${i.input}"; use an IANA name such as "Europe/Berlin" or "UTC"`,
    })
    .default("UTC"),
  /** Wall-clock budget of one execution slice (time spent waiting durably does not count). */
  maxRunMs: z
    .int()
    .min(1)
    .max(7 * 86_400_000)
    .default(300_000),
  /** Nodes of one run executing at the same time. */
  concurrency: z.int().min(1).max(64).default(4),
  /** A flow with an error trigger, started (channel `error`) when a run of this flow fails or times out. */
  errorFlowId: z.string().min(1).optional(),
  /** Who is e-mailed when a run of this flow fails, through an SMTP credential's server. */
  failureEmail: FailureEmail.optional(),
});
export type FlowSettings = z.infer<typeof FlowSettings>;

export const StickyNote = z.object({
  id: idString,
  text: z.string().max(20_000),
  position: Position,
  size: z.object({ width: z.number().positive(), height: z.number().positive() }).optional(),
});
export type StickyNote = z.infer<typeof StickyNote>;

const StoredBinaryRef = z.object({
  id: z.string().min(1),
  mimeType: z.string(),
  fileName: z.string().optional(),
  size: z.number().min(0),
});

/** One item as stored in a flow file (pinned data). */
export const PinnedItem = z.object({
  json: z.record(z.string(), z.unknown()),
  binary: z.record(z.string(), StoredBinaryRef).optional(),
});
export type PinnedItem = z.infer<typeof PinnedItem>;

export const FlowDefinition = z.object({
  nodes: z.array(FlowNode).max(5000),
  edges: z.array(FlowEdge).max(20_000).default([]),
  // The defaults of an absent settings object are FlowSettings' own, written once (above).
  settings: FlowSettings.default(() => FlowSettings.parse({})),
  notes: z.array(StickyNote).max(1000).default([]),
  /**
   * Node id → items the node answers with instead of executing, while editing ("pinned data").
   * Only runs asked to (`runFlow({ usePinData: true })`, the editor's manual runs) use them.
   */
  pinData: z.record(idString, z.array(PinnedItem).max(10_000)).optional(),
});
/** A parsed flow (defaults applied). */
export type FlowDefinition = z.infer<typeof FlowDefinition>;
/** A flow as written in a file (defaults optional). */
export type FlowDefinitionInput = z.input<typeof FlowDefinition>;

/** Why a flow cannot be saved as is or run: what validation (the engine's `validateFlow`) reports. */
export type ProblemCode =
  | "flow_invalid"
  | "duplicate_node_id"
  | "duplicate_edge_id"
  | "duplicate_edge"
  | "unknown_node_type"
  | "unsupported_type_version"
  | "config_invalid"
  | "expression_invalid"
  | "dangling_edge"
  | "unknown_port"
  | "cycle"
  | "unreachable_node"
  | "no_trigger"
  | "multiple_triggers"
  | "check_failed"
  | "unknown_agent"
  | "placeholder_node"
  | "internal";

export interface Problem {
  code: ProblemCode | (string & {});
  message: string;
  nodeId?: string;
  edgeId?: string;
  /** Config field path (dotted) or flow file path for `flow_invalid`. */
  field?: string;
}

export type ParseFlowResult =
  | { ok: true; flow: FlowDefinition }
  | { ok: false; issues: { path: string; message: string }[] };

/** Parses untrusted JSON (string or value) into a flow; never throws. */
export function parseFlow(json: unknown): ParseFlowResult {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (err) {
      return { ok: false, issues: [{ path: "", message: `not valid JSON: ${(err as Error).message}` }] };
    }
  }
  const parsed = FlowDefinition.safeParse(value);
  if (parsed.success) return { ok: true, flow: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
  };
}

/** JSON Schema of the flow file format (input shape: fields with defaults are optional). */
export function flowJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(FlowDefinition, { io: "input" }) as Record<string, unknown>;
}
