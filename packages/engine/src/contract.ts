/**
 * The node contract: what the executor hands a node and what it gets back.
 * Node packages implement it; the executor consumes it. Nothing here does I/O.
 */
import type { FlowNode, Problem } from "@switchyard/contracts/flow";
import type { RunChannel } from "@switchyard/contracts/runs";
import type { z } from "zod";

export type { RunChannel };

/** Reference to binary data stored by the host (never inline bytes in items). */
export interface BinaryRef {
  id: string;
  mimeType: string;
  fileName?: string;
  size: number;
}

/** One unit of data flowing between nodes, as in n8n. */
export interface Item {
  json: Record<string, unknown>;
  binary?: Record<string, BinaryRef>;
}

export interface RunInfo {
  id: string;
  flowId: string;
  startedAt: string;
  channel: RunChannel;
}

export interface NodeLogger {
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/** Minimal HTTP client; the host's implementation enforces the SSRF guard. */
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  maxResponseBytes?: number;
  signal?: AbortSignal;
}
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  url: string;
}
export interface HttpClient {
  request(req: HttpRequest): Promise<HttpResponse>;
}

export interface SecretsReader {
  /** Decrypted credential fields; never log or return these. */
  get(credentialId: string): Promise<{ type: string; data: Record<string, string> }>;
}

/**
 * Connections shared across runs (database pools, broker clients), one per key. `use` opens the
 * resource on first use and holds it while `fn` runs; the host closes it once nothing has used it for
 * its idle time, and closes every one on shutdown.
 */
export interface ConnectionPools {
  use<T, R>(key: string, resource: PooledResource<T>, fn: (conn: T) => Promise<R>): Promise<R>;
}

export interface PooledResource<T> {
  open(): Promise<T>;
  close(conn: T): Promise<void>;
}

export interface AgentRunRequest {
  agentRef: string;
  prompt: string;
  inputContext: unknown;
  channel: RunChannel;
  responseFormat?: { type: "text" } | { type: "json"; schema?: unknown };
  model?: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Receives this request's agent turn traces (the host stores them with the step). */
  onTrace?: (trace: unknown) => void;
}
export interface AgentRunResult {
  text: string;
  json?: unknown;
  agent_ref: string;
  stop: "finished" | "limit_stop";
  /** With `limit_stop`: the iteration limit the agent reached (its answer is the forced wrap-up). */
  maxIterations?: number;
  usage?: { promptTokens: number; completionTokens: number };
}
export interface AgentRunner {
  run(req: AgentRunRequest): Promise<AgentRunResult>;
}

export interface ExpressionEvaluator {
  /** Evaluates a JSONata expression (no leading `=`) against a scope in the sandbox. */
  evaluate(source: string, scope: Record<string, unknown>): Promise<unknown>;
}

export interface SubflowCaller {
  /** `depth` is the callee's depth in the chain of calls (the caller's + 1). */
  call(flowId: string, items: Item[], opts: { signal: AbortSignal; depth?: number }): Promise<Item[]>;
}

export interface WebhookResponder {
  respond(res: { status: number; headers: Record<string, string>; body: unknown }): void;
}

/** Every capability a node may use. Tests pass plain fakes; absent ones are refused clearly. */
/** One use of a shared connection: give it back with `release`, or `discard` it when it failed. */
export interface ConnectionLease<T> {
  connection: T;
  release(): void;
  /** Closes it now (a broken connection); the next `acquire` opens a new one. */
  discard(): void;
}

/**
 * Connections kept open between runs, one per key (a credential and its settings). After the last
 * lease is released one stays open `idleMs`, then is closed; the host closes every one on shutdown.
 */
export interface SharedConnections {
  acquire<T>(
    key: string,
    spec: {
      /** Opens it; call `lost` when it dies by itself (the broker went away) so it is not handed out again. */
      open(lost: () => void): Promise<T>;
      close(connection: T): Promise<void> | void;
      idleMs?: number;
    },
  ): Promise<ConnectionLease<T>>;
}

export interface NodeContext {
  nodeId: string;
  run: RunInfo;
  log: NodeLogger;
  signal: AbortSignal;
  now(): Date;
  expressions: ExpressionEvaluator;
  http?: HttpClient;
  secrets?: SecretsReader;
  agents?: AgentRunner;
  flows?: SubflowCaller;
  webhook?: WebhookResponder;
  /** Shared connections for database and broker nodes. */
  pools?: ConnectionPools;
  /** Long-lived client connections (brokers) shared per credential across runs; the host closes them. */
  connections?: SharedConnections;
  /** How deep this run is in a chain of `flow.call`s (0 for a run started by a trigger). */
  callDepth?: number;
}

/** A node's answer: items on one named port, several ports at once, or a durable wait. */
export type NodeResult =
  | { port?: string; items: Item[] }
  | { outputs: Record<string, Item[]> }
  | { wait: { until: string }; items: Item[] };

export interface NodeExecuteArgs<C> {
  config: C;
  input: Item[];
  ctx: NodeContext;
  /** For nodes with several input ports: the items that arrived on each port (edge order). */
  inputsByPort?: Record<string, Item[]>;
  /**
   * `once` nodes only: resolves expressions in a raw (unresolved) config value against one input item,
   * with the same scope a `perItem` node gets (item, items, trigger, nodes, run). Lets a node run every
   * item in one go (one database transaction) and still take per-item values.
   */
  resolveForItem?: (value: unknown, item: Item | undefined) => Promise<unknown>;
}

export interface NodeDefinition<S extends z.ZodType = z.ZodType> {
  kind: "action";
  type: string;
  typeVersion: number;
  title: string;
  description: string;
  category: string;
  icon: string;
  /** Output ports, named. `error` is added by the executor when onError is `route`. */
  ports: readonly string[];
  /** Input ports; most nodes have one named `main`. */
  inputs: readonly string[];
  /** `perItem`: config expressions resolved per item and execute called once per item. */
  runMode: "once" | "perItem";
  /**
   * Declares the node a loop head: a cycle is allowed when it returns into this node (a back edge).
   * Each visit gets the items of the back edges; the node ends the loop by emitting nothing on its
   * body port(s).
   */
  loop?: true;
  /**
   * Top-level config keys that are never expressions (code, a JSONata program the node evaluates itself):
   * the executor passes them through untouched and validation does not parse them as expressions.
   */
  rawFields?: readonly string[];
  /**
   * No effect outside the run (no network, no mail, no writes): re-running it after a crash changes
   * nothing in the world, so the host may batch its checkpoint with the next one instead of committing
   * it on its own.
   */
  pure?: true;
  /**
   * May run for seconds (a sandboxed program, a model call): the host never executes it while holding a
   * request open before the run is admitted (see the runtime's inline runs).
   */
  longRunning?: true;
  config: S;
  /** Example config used for docs and the catalogue round-trip test. */
  example: z.input<S>;
  /** Upgrades a config saved with an older typeVersion. */
  migrate?: (config: unknown, fromVersion: number) => unknown;
  /**
   * Problems this type finds in a node beyond its config schema, reported by validation like any other
   * (save keeps them as a draft's problems, activation refuses them): the import placeholder uses it.
   */
  check?: (node: FlowNode) => Problem[];
  execute(args: NodeExecuteArgs<z.infer<S>>): Promise<NodeResult>;
}

export interface TriggerDefinition<S extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType> {
  kind: "trigger";
  type: string;
  typeVersion: number;
  title: string;
  description: string;
  category: "trigger";
  icon: string;
  ports: readonly ["main"];
  channel: RunChannel;
  config: S;
  example: z.input<S>;
  /** Shape of the payload the runtime produces for a run (becomes the first item's json). */
  payload: P;
  migrate?: (config: unknown, fromVersion: number) => unknown;
}

export type AnyNodeType = NodeDefinition | TriggerDefinition;

/** The executor looks node types up here; the nodes package provides the real one. */
export interface NodeRegistry {
  get(type: string): AnyNodeType | undefined;
}
