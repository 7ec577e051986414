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
import { outputPorts } from "../validate/validate-flow";
import { retryDelay } from "./retry";
import type { Effect, NodeRunState, PartialResult, RunEvent, RunState, StepOutcome, StepRecord } from "./types";

export interface CreateStateOptions {
  /** Defaults to the flow's `settings.concurrency`. */
  concurrency?: number;
  /** Upper bound on visits of any single node (guards against runaway loops). */
  maxNodeVisits?: number;
}

export function createRunState(graph: FlowGraph, opts: CreateStateOptions = {}): RunState {
  const nodes: Record<string, NodeRunState> = {};
  for (const id of graph.order) nodes[id] = { status: "pending", visit: 0, attempt: 0, input: [], outputs: {} };
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

export function step(graph: FlowGraph, state: RunState, event: RunEvent): { state: RunState; effects: Effect[] } {
  const effects: Effect[] = [];
  const m = new Machine(graph, state, effects);
  m.handle(event);
  return { state, effects };
}

class Machine {
  constructor(
    private readonly g: FlowGraph,
    private readonly s: RunState,
    private readonly fx: Effect[],
  ) {}

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
      this.end("failed", { code: "flow_invalid", message: "the flow has no trigger", retryable: false }, "cancelled");
      return;
    }
    const node = this.s.nodes[id]!;
    node.visit = 1;
    node.attempt = 1;
    this.succeeded(id, node, { main: triggerItems }, true);
  }

  private record(nodeId: string, node: NodeRunState, extra: Partial<StepOutcome> & Pick<StepOutcome, "status">) {
    const step: StepOutcome = {
      nodeId,
      visit: node.visit,
      attempt: node.attempt,
      input: node.input,
      outputs: node.outputs,
      ...extra,
    };
    this.fx.push({ type: "record", step });
  }

  private release(node: NodeRunState): void {
    if (node.status === "running") this.s.running--;
    else if (node.status === "retrying") this.s.retrying--;
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
    const port = def.onError === "route" ? "error" : type?.ports.includes("main") ? "main" : (type?.ports[0] ?? "main");
    outputs[port] = [...(outputs[port] ?? []), ...errorItems];
    this.release(node);
    node.status = "failed";
    node.outputs = outputs;
    this.record(id, node, { status: "failed", error });
    this.emit(id, outputs);
  }

  private waiting(id: string, node: NodeRunState, until: string, outputs: Record<string, Item[]>, at: number, record: boolean) {
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
        this.end("failed", rec.error ?? { code: "internal", message: "failed", retryable: false }, "cancelled");
      } else this.emit(rec.nodeId, rec.outputs);
    }
  }

  /** Resolves the node's outgoing edges and activates their targets. */
  private emit(id: string, outputs: Record<string, Item[]>): void {
    const out = this.g.outgoing.get(id)!;
    if (out.length === 0 && hasItems(outputs)) this.s.outputNode = id;
    const body = this.g.loopBodies.get(id);
    if (body) this.resetBody(id);
    // While a loop keeps iterating, what it emits towards the outside is collected and delivered when
    // the loop ends (the iteration that sends nothing into the body).
    const iterating =
      body !== undefined &&
      out.some((e) => (body.has(e.to.node) || e.to.node === id) && (outputs[e.from.port]?.length ?? 0) > 0);
    const used = new Set<Item[]>();
    for (const edge of out) {
      let items = outputs[edge.from.port];
      const es = this.s.edges[edge.index]!;
      if (body && !body.has(edge.to.node) && edge.to.node !== id) {
        if (items && items.length > 0) es.items = es.items.length > 0 ? [...es.items, ...items] : items;
        if (iterating) continue;
        items = es.items;
      }
      if (items && items.length > 0) {
        es.status = "active";
        // One array feeding several branches: later branches get their own copy so a node mutating
        // its input cannot change what a sibling sees.
        es.items = used.has(items) ? structuredClone(items) : items;
        used.add(items);
      } else {
        es.status = "dead";
        es.items = [];
      }
    }
    for (const edge of out) {
      if (this.s.status === "running" && this.s.edges[edge.index]!.status !== "pending") this.activate(edge.to.node);
    }
  }

  private resetBody(loopId: string): void {
    const body = this.g.loopBodies.get(loopId)!;
    for (const id of body) this.s.nodes[id]!.status = "pending";
    for (const edge of this.g.edges) {
      const inside = (n: string) => n === loopId || body.has(n);
      if (inside(edge.from.node) && inside(edge.to.node)) this.s.edges[edge.index] = { status: "pending", items: [] };
    }
  }

  private activate(id: string): void {
    const node = this.s.nodes[id]!;
    const def = this.g.nodes.get(id)!;
    const isLoop = this.g.loopBodies.has(id);
    let edges = this.g.incoming.get(id)!;
    if (isLoop) {
      const again = node.status !== "pending";
      if (again && node.status !== "succeeded" && node.status !== "failed") return;
      edges = edges.filter((e) => this.g.backEdges.has(e.index) === again);
    } else if (node.status !== "pending") return;
    let anyActive = false;
    for (const e of edges) {
      const st = this.s.edges[e.index]!.status;
      if (st === "pending") return;
      if (st === "active") anyActive = true;
    }
    const input: Item[] = [];
    for (const e of edges) {
      const es = this.s.edges[e.index]!;
      if (es.status === "active") for (const item of es.items) input.push(item);
    }
    if (!anyActive) {
      if (isLoop && node.status !== "pending") return; // loop finished: its body emitted nothing back
      node.visit++;
      node.attempt = 0;
      node.status = "skipped";
      node.input = [];
      node.outputs = {};
      this.record(id, node, { status: "skipped", reason: "no_input" });
      this.emit(id, {});
      return;
    }
    if (node.visit >= this.s.maxNodeVisits) {
      const error: NodeErrorInfo = {
        code: "limit_exceeded",
        message: `node "${id}" was visited ${this.s.maxNodeVisits} times (runaway loop?)`,
        nodeId: id,
        retryable: false,
      };
      this.end("failed", error, "cancelled");
      return;
    }
    node.visit++;
    node.attempt = 0;
    node.input = input;
    node.outputs = {};
    if (def.disabled) {
      const type = this.g.types.get(id);
      const port = type && outputPorts(def, type).includes("main") ? "main" : (type?.ports[0] ?? "main");
      node.status = "skipped";
      node.outputs = { [port]: input };
      this.record(id, node, { status: "skipped", reason: "disabled" });
      this.emit(id, node.outputs);
      return;
    }
    node.status = "ready";
    this.s.ready.push(id);
  }

  private pump(): void {
    while (this.s.running < this.s.concurrency && this.s.ready.length > 0) {
      const id = this.s.ready.shift()!;
      const node = this.s.nodes[id]!;
      node.status = "running";
      if (node.attempt === 0) node.attempt = 1;
      this.s.running++;
      this.fx.push({ type: "execute", nodeId: id, visit: node.visit, attempt: node.attempt, input: node.input });
    }
  }

  private checkDone(): void {
    if (this.s.running > 0 || this.s.retrying > 0 || this.s.ready.length > 0) return;
    const waits = Object.values(this.s.waits);
    if (waits.length > 0) {
      const resumeAt = waits.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b));
      this.s.status = "waiting";
      this.fx.push({ type: "finish", status: "waiting", resumeAt });
      return;
    }
    this.s.status = "succeeded";
    this.fx.push({ type: "finish", status: "succeeded" });
  }

  /** Ends the run: in-flight nodes are aborted and recorded as failed with the abort's code. */
  private end(status: "failed" | "cancelled" | "timed_out", error: NodeErrorInfo, abortCode: "cancelled" | "timeout") {
    this.s.status = status;
    this.s.error = error;
    for (const [id, node] of Object.entries(this.s.nodes)) {
      if (node.status !== "running" && node.status !== "retrying") continue;
      if (node.status === "running") this.fx.push({ type: "abort", nodeId: id, visit: node.visit, code: abortCode });
      const message = abortCode === "timeout" ? "stopped: the run timed out" : "stopped: the run ended";
      this.release(node);
      node.status = "failed";
      this.record(id, node, { status: "failed", outputs: {}, error: { code: abortCode, message, nodeId: id, retryable: false } });
    }
    this.s.ready = [];
    this.fx.push({ type: "finish", status, error });
  }
}

function hasItems(outputs: Record<string, Item[]>): boolean {
  for (const k in outputs) if ((outputs[k]?.length ?? 0) > 0) return true;
  return false;
}

/** The item sent on `error` (route) or the main port (continue) for an item whose processing failed. */
export function toErrorItem(item: Item, error: NodeErrorInfo): Item {
  const out: Item = { json: { ...item.json, error: { code: error.code, message: error.message, nodeId: error.nodeId } } };
  if (item.binary) out.binary = item.binary;
  return out;
}
