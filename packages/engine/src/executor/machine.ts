/**
 * The executor as a state machine: `step(graph, state, event) → { state, effects }`. No I/O, no clock,
 * no randomness (time and random numbers arrive in events). For speed the state is updated in place and
 * returned; the driver owns it (clone it first if you need the previous snapshot).
 *
 * Scheduling rules:
 *  - an edge is `active` when its source emitted at least one item on its port, else `dead`;
 *  - a node runs when all its incoming edges are resolved and one is active; input = the active
 *    edges' items concatenated in edge order; when all are dead it is skipped (and so is its branch);
 *  - a loop node runs first on its entry edges, then again whenever all its back edges resolved with
 *    items; before each new iteration its body is reset so body nodes run again.
 */
import type { Item } from "../contract";
import type { NodeErrorInfo } from "../errors";
import type { FlowGraph } from "../flow/graph";
import { retryDelay } from "./retry";
import { Scheduler } from "./scheduler";
import type { Effect, NodeRunState, PartialResult, RunEvent, RunState, StepRecord } from "./types";

export interface CreateStateOptions {
  /** Defaults to the flow's `settings.concurrency`. */
  concurrency?: number;
  /** Upper bound on visits of any single node (guards against runaway loops). */
  maxNodeVisits?: number;
}

export function createRunState(graph: FlowGraph, opts: CreateStateOptions = {}): RunState {
  const nodes: Record<string, NodeRunState> = {};
  for (const id of graph.order)
    nodes[id] = { status: "pending", visit: 0, attempt: 0, input: [], outputs: {} };
  return {
    status: "idle",
    nodes,
    edges: graph.flow.edges.map(() => ({ status: "pending", items: [] })),
    ready: [],
    running: 0,
    retrying: 0,
    waits: {},
    concurrency: opts.concurrency ?? graph.flow.settings.concurrency,
    maxNodeVisits: opts.maxNodeVisits ?? 1000,
  };
}

export function step(
  graph: FlowGraph,
  state: RunState,
  event: RunEvent,
): { state: RunState; effects: Effect[] } {
  const effects: Effect[] = [];
  const m = new Machine(graph, state, effects);
  m.handle(event);
  return { state, effects };
}

class Machine extends Scheduler {
  handle(ev: RunEvent): void {
    if (ev.type === "start") {
      if (this.s.status !== "idle") return;
      this.s.status = "running";
      this.start(ev.triggerItems);
    } else if (this.s.status !== "running") {
      return; // late results after the run ended are ignored
    } else if (ev.type === "cancel") {
      this.end("cancelled", { code: "cancelled", message: "run cancelled", retryable: false }, "cancelled");
      return;
    } else if (ev.type === "runTimeout") {
      const error = { code: "timeout" as const, message: `run exceeded ${ev.maxRunMs} ms`, retryable: false };
      this.end("timed_out", error, "timeout");
      return;
    } else {
      const node = this.s.nodes[ev.type === "replay" ? ev.record.nodeId : ev.nodeId];
      const visit = ev.type === "replay" ? ev.record.visit : ev.visit;
      if (!node || node.visit !== visit) return;
      if (ev.type === "nodeSucceeded") this.succeeded(ev.nodeId, node, ev.outputs, true);
      else if (ev.type === "nodeFailed") this.failed(ev, node);
      else if (ev.type === "nodeWaiting") this.waiting(ev.nodeId, node, ev.until, ev.outputs, ev.at, true);
      else if (ev.type === "timerFired") this.timer(ev.nodeId, node);
      else this.replay(ev.record, node, ev.at);
    }
    if (this.s.status === "running") {
      this.pump();
      this.checkDone();
    }
  }

  private start(triggerItems: Item[]): void {
    const id = this.g.triggers[0];
    if (!id) {
      this.end(
        "failed",
        { code: "flow_invalid", message: "the flow has no trigger", retryable: false },
        "cancelled",
      );
      return;
    }
    const node = this.s.nodes[id]!;
    node.visit = 1;
    node.attempt = 1;
    this.succeeded(id, node, { main: triggerItems }, true);
  }

  private succeeded(id: string, node: NodeRunState, outputs: Record<string, Item[]>, record: boolean): void {
    this.release(node);
    node.status = "succeeded";
    node.outputs = outputs;
    if (record) this.record(id, node, { status: "succeeded" });
    this.emit(id, outputs);
  }

  private failed(ev: Extract<RunEvent, { type: "nodeFailed" }>, node: NodeRunState): void {
    const def = this.g.nodes.get(ev.nodeId)!;
    const error: NodeErrorInfo = { ...ev.error, nodeId: ev.error.nodeId ?? ev.nodeId };
    const retry = def.retry;
    if (retry && error.retryable && node.attempt < retry.maxAttempts) {
      const at = new Date(ev.at + retryDelay(retry, node.attempt, ev.rand)).toISOString();
      this.record(ev.nodeId, node, { status: "failed", outputs: {}, error, retryAt: at });
      this.scheduleRetry(ev.nodeId, node, at);
      return;
    }
    this.finalFailure(ev.nodeId, node, error, ev.partial);
  }

  private scheduleRetry(id: string, node: NodeRunState, at: string): void {
    this.release(node);
    node.status = "retrying";
    this.s.retrying++;
    this.fx.push({ type: "scheduleRetry", nodeId: id, visit: node.visit, attempt: node.attempt + 1, at });
  }

  private finalFailure(id: string, node: NodeRunState, error: NodeErrorInfo, partial?: PartialResult): void {
    const def = this.g.nodes.get(id)!;
    const failedItems = partial?.failedItems ?? node.input;
    const errorItems = failedItems.map((item) => toErrorItem(item, error));
    if (def.onError === "stop") {
      this.release(node);
      node.status = "failed";
      node.outputs = {};
      this.record(id, node, { status: "failed", error });
      this.end("failed", error, "cancelled");
      return;
    }
    const outputs: Record<string, Item[]> = { ...(partial?.outputs ?? {}) };
    const type = this.g.types.get(id);
    const port =
      def.onError === "route" ? "error" : type?.ports.includes("main") ? "main" : (type?.ports[0] ?? "main");
    outputs[port] = [...(outputs[port] ?? []), ...errorItems];
    this.release(node);
    node.status = "failed";
    node.outputs = outputs;
    this.record(id, node, { status: "failed", error });
    this.emit(id, outputs);
  }

  private waiting(
    id: string,
    node: NodeRunState,
    until: string,
    outputs: Record<string, Item[]>,
    at: number,
    record: boolean,
  ) {
    if (Date.parse(until) <= at || Number.isNaN(Date.parse(until))) {
      this.succeeded(id, node, outputs, true);
      return;
    }
    this.release(node);
    node.status = "waiting";
    node.outputs = outputs;
    this.s.waits[id] = until;
    if (record) this.record(id, node, { status: "waiting", resumeAt: until });
    this.fx.push({ type: "wait", nodeId: id, visit: node.visit, until });
  }

  private timer(id: string, node: NodeRunState): void {
    if (node.status === "retrying") {
      this.s.retrying--;
      node.status = "ready";
      node.attempt++;
      this.s.ready.push(id);
    } else if (node.status === "waiting") {
      delete this.s.waits[id];
      this.succeeded(id, node, node.outputs, true);
    }
  }

  /** Applies a checkpoint from an earlier execution slice instead of executing the node again. */
  private replay(rec: StepRecord, node: NodeRunState, at: number): void {
    node.attempt = rec.attempt;
    node.input = rec.input;
    if (rec.status === "succeeded" || rec.status === "skipped") {
      this.release(node);
      node.status = rec.status;
      node.outputs = rec.outputs;
      this.emit(rec.nodeId, rec.outputs);
    } else if (rec.status === "waiting") {
      this.waiting(rec.nodeId, node, rec.resumeAt ?? "", rec.outputs, at, false);
    } else if (rec.retryAt) {
      this.scheduleRetry(rec.nodeId, node, rec.retryAt);
    } else {
      this.release(node);
      node.status = "failed";
      node.outputs = rec.outputs;
      if (this.g.nodes.get(rec.nodeId)!.onError === "stop") {
        this.end(
          "failed",
          rec.error ?? { code: "internal", message: "failed", retryable: false },
          "cancelled",
        );
      } else this.emit(rec.nodeId, rec.outputs);
    }
  }
}

/** The item sent on `error` (route) or the main port (continue) for an item whose processing failed. */
export function toErrorItem(item: Item, error: NodeErrorInfo): Item {
  const out: Item = {
    json: { ...item.json, error: { code: error.code, message: error.message, nodeId: error.nodeId } },
  };
  if (item.binary) out.binary = item.binary;
  return out;
}
