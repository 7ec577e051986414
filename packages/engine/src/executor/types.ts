/**
 * Data shapes of the executor: the run state, the events fed to `step`, the effects it asks the driver
 * to perform, and the durable step record. All plain data.
 */
import type { RunStatus as StoredRunStatus, StepStatus } from "@switchyard/contracts/runs";
import type { Item } from "../contract";
import type { NodeErrorInfo } from "../errors";

export type { StepStatus };

/** How one execution slice ends: a stored run status other than `queued` and `running`. */
export type RunStatus = Exclude<StoredRunStatus, "queued" | "running">;

export type NodeStatus =
  | "pending"
  | "ready"
  | "running"
  | "retrying"
  | "waiting"
  | "succeeded"
  | "failed"
  | "skipped";

export interface NodeRunState {
  status: NodeStatus;
  /** How many times the node was started in this run (loops visit nodes more than once). */
  visit: number;
  attempt: number;
  input: Item[];
  /** Set for nodes with several input ports (merge by key needs to know which side an item came from). */
  inputsByPort?: Record<string, Item[]>;
  outputs: Record<string, Item[]>;
}

export interface EdgeRunState {
  status: "pending" | "active" | "dead";
  items: Item[];
}

export interface RunState {
  status: "idle" | "running" | RunStatus;
  nodes: Record<string, NodeRunState>;
  /** Indexed like `flow.edges`. */
  edges: EdgeRunState[];
  /** Node ids waiting for a free execution slot, in activation order. */
  ready: string[];
  running: number;
  /** Nodes with a retry timer pending. */
  retrying: number;
  /** Node id → ISO time its durable wait ends. */
  waits: Record<string, string>;
  concurrency: number;
  maxNodeVisits: number;
  /** Node whose output becomes the run output (the last sink that produced items). */
  outputNode?: string;
  error?: NodeErrorInfo;
}

/** What happened to a failing node's items, so `continue`/`route` can emit them. */
export interface PartialResult {
  /** Outputs of items that succeeded before/besides the failure (per-item nodes). */
  outputs: Record<string, Item[]>;
  /** Input items that failed (all of them for `once` nodes). */
  failedItems: Item[];
}

export type RunEvent =
  | { type: "start"; triggerItems: Item[] }
  | { type: "nodeSucceeded"; nodeId: string; visit: number; outputs: Record<string, Item[]> }
  | {
      type: "nodeFailed";
      nodeId: string;
      visit: number;
      error: NodeErrorInfo;
      partial?: PartialResult;
      /** Current time (ms) and a uniform random number in [0,1): retry timing stays a pure function. */
      at: number;
      rand: number;
    }
  | {
      type: "nodeWaiting";
      nodeId: string;
      visit: number;
      until: string;
      outputs: Record<string, Item[]>;
      at: number;
    }
  | { type: "timerFired"; nodeId: string; visit: number }
  | { type: "replay"; record: StepRecord; at: number }
  | { type: "cancel" }
  | { type: "runTimeout"; maxRunMs: number };

/** A finished (or parked) step as the machine describes it; the driver adds times and saves it. */
export interface StepOutcome {
  nodeId: string;
  visit: number;
  attempt: number;
  status: StepStatus;
  input: Item[];
  outputs: Record<string, Item[]>;
  error?: NodeErrorInfo;
  /** `pinned`: the node was not executed; its outputs are the flow's pinned data. `reused`: copied from the
   * run this one retries or takes its input from (the step runs of the runtime). */
  reason?: "disabled" | "no_input" | "pinned" | "reused";
  /** For `waiting`: when the wait ends. */
  resumeAt?: string;
  /** For a failed attempt that will be retried. */
  retryAt?: string;
}

export type Effect =
  | {
      type: "execute";
      nodeId: string;
      visit: number;
      attempt: number;
      input: Item[];
      /** Input split by the input port each edge feeds (only for nodes with several input ports). */
      inputsByPort?: Record<string, Item[]>;
    }
  | { type: "record"; step: StepOutcome }
  | { type: "scheduleRetry"; nodeId: string; visit: number; attempt: number; at: string }
  | { type: "wait"; nodeId: string; visit: number; until: string }
  | { type: "abort"; nodeId: string; visit: number; code: "cancelled" | "timeout" }
  | { type: "finish"; status: RunStatus; error?: NodeErrorInfo; resumeAt?: string };

/** The durable checkpoint of one step. `stepId` (`<nodeId>#<visit>`) is the memoisation key on resume. */
export interface StepRecord extends StepOutcome {
  runId: string;
  stepId: string;
  /** The port the node answered on (first port with items) — convenience for traces. */
  port?: string;
  startedAt: string;
  endedAt: string;
  /** The node is pure (or a trigger): its checkpoint may be batched with the next durable write. */
  pure?: true;
}

export function stepIdOf(nodeId: string, visit: number): string {
  return `${nodeId}#${visit}`;
}

export interface RunResult {
  runId: string;
  status: RunStatus;
  /** The latest record of every step, in the order steps first finished. */
  steps: StepRecord[];
  error?: NodeErrorInfo;
  /** Items of the last sink node (a node without outgoing edges) that produced items. */
  output: Item[];
  /** For `waiting`: call `runFlow` again with the same run id after this time. */
  resumeAt?: string;
}
