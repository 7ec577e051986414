/**
 * The scheduling half of the executor state machine: resolves edges when a node finishes, decides which
 * nodes become ready or skipped (joins, loops, disabled nodes), hands out execution slots and ends runs.
 */
import type { Item } from "../contract";
import type { NodeErrorInfo } from "../errors";
import type { FlowGraph } from "../flow/graph";
import { outputPorts } from "../validate/validate-flow";
import type { Effect, NodeRunState, RunState, StepOutcome } from "./types";

export abstract class Scheduler {
  constructor(
    protected readonly g: FlowGraph,
    protected readonly s: RunState,
    protected readonly fx: Effect[],
  ) {}

  protected record(
    nodeId: string,
    node: NodeRunState,
    extra: Partial<StepOutcome> & Pick<StepOutcome, "status">,
  ) {
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

  protected release(node: NodeRunState): void {
    if (node.status === "running") this.s.running--;
    else if (node.status === "retrying") this.s.retrying--;
  }

  /** Resolves the node's outgoing edges and activates their targets. */
  protected emit(id: string, outputs: Record<string, Item[]>): void {
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
      if (this.s.status === "running" && this.s.edges[edge.index]!.status !== "pending")
        this.activate(edge.to.node);
    }
  }

  protected resetBody(loopId: string): void {
    const body = this.g.loopBodies.get(loopId)!;
    for (const id of body) this.s.nodes[id]!.status = "pending";
    for (const edge of this.g.edges) {
      const inside = (n: string) => n === loopId || body.has(n);
      if (inside(edge.from.node) && inside(edge.to.node))
        this.s.edges[edge.index] = { status: "pending", items: [] };
    }
  }

  protected activate(id: string): void {
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
    const multiPort =
      (this.g.types.get(id) as { inputs?: readonly string[] } | undefined)?.inputs?.length ?? 1;
    const byPort: Record<string, Item[]> | undefined = multiPort > 1 ? {} : undefined;
    for (const e of edges) {
      const es = this.s.edges[e.index]!;
      if (es.status !== "active") continue;
      for (const item of es.items) input.push(item);
      if (byPort) byPort[e.to.port] = [...(byPort[e.to.port] ?? []), ...es.items];
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
    if (byPort) node.inputsByPort = byPort;
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

  protected pump(): void {
    while (this.s.running < this.s.concurrency && this.s.ready.length > 0) {
      const id = this.s.ready.shift()!;
      const node = this.s.nodes[id]!;
      node.status = "running";
      if (node.attempt === 0) node.attempt = 1;
      this.s.running++;
      this.fx.push({
        type: "execute",
        nodeId: id,
        visit: node.visit,
        attempt: node.attempt,
        input: node.input,
        ...(node.inputsByPort ? { inputsByPort: node.inputsByPort } : {}),
      });
    }
  }

  protected checkDone(): void {
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
  protected end(
    status: "failed" | "cancelled" | "timed_out",
    error: NodeErrorInfo,
    abortCode: "cancelled" | "timeout",
  ) {
    this.s.status = status;
    this.s.error = error;
    for (const [id, node] of Object.entries(this.s.nodes)) {
      if (node.status !== "running" && node.status !== "retrying") continue;
      if (node.status === "running")
        this.fx.push({ type: "abort", nodeId: id, visit: node.visit, code: abortCode });
      const message = abortCode === "timeout" ? "stopped: the run timed out" : "stopped: the run ended";
      this.release(node);
      node.status = "failed";
      this.record(id, node, {
        status: "failed",
        outputs: {},
        error: { code: abortCode, message, nodeId: id, retryable: false },
      });
    }
    this.s.ready = [];
    this.fx.push({ type: "finish", status, error });
  }
}

function hasItems(outputs: Record<string, Item[]>): boolean {
  for (const k in outputs) if ((outputs[k]?.length ?? 0) > 0) return true;
  return false;
}
