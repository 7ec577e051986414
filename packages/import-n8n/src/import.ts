/**
 * The importer: an n8n workflow export → a Switchyard flow file and a report of every mapping, loss
 * and problem. Pure: no I/O, never throws on a workflow it can read (bad input gets N8nImportError).
 */
import type { FlowEdge, FlowNode, StickyNote } from "@switchyard/contracts/flow";
import {
  PLACEHOLDER_MAX_PORTS,
  PLACEHOLDER_NODE_TYPE,
  placeholderPort,
} from "@switchyard/contracts/placeholder";
import { translateValue } from "./expressions";
import { nodeIds } from "./ids";
import { mappers, STICKY_NOTE } from "./mappers";
import type { MapContext, Mapped } from "./mappers/types";
import { type N8nNode, N8nWorkflow } from "./n8n-format";
import { type ImportReport, ReportBuilder } from "./report";

export interface ImportOptions {
  /** n8n credential id or name → Switchyard credential id. Unmapped ones are reported as problems. */
  credentials?: Record<string, string>;
  /** n8n workflow id → Switchyard flow id, for Execute Workflow nodes. */
  workflows?: Record<string, string>;
  /** Name when the workflow has none. */
  fallbackName?: string;
}

export interface FlowFile {
  name: string;
  description: string;
  nodes: FlowNode[];
  edges: FlowEdge[];
  settings?: { timezone?: string };
  notes: StickyNote[];
  pinData?: Record<string, { json: Record<string, unknown> }[]>;
}

export interface ImportResult {
  flow: FlowFile;
  report: ImportReport;
}

/** Input that is not an n8n workflow: the message names the place. */
export class N8nImportError extends Error {
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "N8nImportError";
  }
}

/** Parses text or a value as an n8n workflow export, or throws N8nImportError naming the place. */
export function readN8nWorkflow(input: unknown): N8nWorkflow {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (err) {
      throw new N8nImportError(`not valid JSON: ${(err as Error).message}`);
    }
  }
  const parsed = N8nWorkflow.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({
      path: i.path.map(String).join("."),
      message: i.message,
    }));
    const first = issues[0]!;
    throw new N8nImportError(
      `not an n8n workflow: ${first.path || "(top level)"}: ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}`,
      issues,
    );
  }
  const names = new Set<string>();
  for (const [i, n] of parsed.data.nodes.entries()) {
    if (names.has(n.name))
      throw new N8nImportError(`not an n8n workflow: nodes.${i}.name: "${n.name}" is used twice`);
    names.add(n.name);
  }
  return parsed.data;
}

const DEFAULT_NOTE_SIZE = { width: 240, height: 120 };

export function importN8nWorkflow(input: unknown, options: ImportOptions = {}): ImportResult {
  const wf = readN8nWorkflow(input);
  const report = new ReportBuilder();
  const nodes: FlowNode[] = [];
  const notes: StickyNote[] = [];
  const realNodes = wf.nodes.filter((n) => n.type !== STICKY_NOTE);
  const ids = nodeIds(realNodes.map((n) => n.name));
  // Expressions naming a node read the node that carries its n8n output (an HTTP request's unwrap).
  const refIds = new Map(ids);
  const ports = new Map<string, { outputs: readonly string[]; inputs: readonly string[]; outId: string }>();

  for (const [i, n] of wf.nodes.entries()) {
    if (n.type !== STICKY_NOTE) continue;
    const p = n.parameters as { content?: unknown; width?: unknown; height?: unknown };
    notes.push({
      id: `note_${i + 1}`,
      text: typeof p.content === "string" ? p.content : "",
      position: { x: n.position[0], y: n.position[1] },
      size: {
        width: typeof p.width === "number" && p.width > 0 ? p.width : DEFAULT_NOTE_SIZE.width,
        height: typeof p.height === "number" && p.height > 0 ? p.height : DEFAULT_NOTE_SIZE.height,
      },
    });
    report.nodes.push({
      n8nName: n.name,
      n8nType: n.type,
      n8nTypeVersion: n.typeVersion,
      id: `note_${i + 1}`,
      type: "note",
      status: "note",
    });
  }

  // First pass decides every node's mapping, so references to later nodes resolve.
  const mapped = new Map<string, Mapped | { unsupported: string }>();
  const pending: [N8nNode, MapContext][] = [];
  for (const n of realNodes) {
    const id = ids.get(n.name)!;
    const ctx = contextFor(n, id, refIds, report, options);
    pending.push([n, ctx]);
  }
  // Nodes followed by a reshaping node are read there; known from the type alone, before any mapping.
  for (const n of realNodes) {
    const suffix = reshapedBy(n);
    if (suffix) refIds.set(n.name, `${ids.get(n.name)}${suffix}`);
  }
  for (const [n, ctx] of pending) {
    const mapper = mappers[n.type];
    mapped.set(n.name, mapper ? mapper(ctx) : { unsupported: `Switchyard has no equivalent of ${n.type}` });
  }

  for (const [n, ctx] of pending) {
    const m = mapped.get(n.name)!;
    const base = {
      id: ctx.id,
      typeVersion: 1,
      name: n.name,
      position: { x: n.position[0], y: n.position[1] },
      ...(n.disabled ? { disabled: true } : {}),
    };
    if ("unsupported" in m) {
      report.problem("unsupported_node", n.name, undefined, `${m.unsupported}; kept as a placeholder`);
      nodes.push({
        ...base,
        type: PLACEHOLDER_NODE_TYPE,
        onError: "stop",
        config: {
          source: "n8n",
          originalType: n.type,
          originalTypeVersion: n.typeVersion,
          reason: m.unsupported,
          parameters: n.parameters,
          ...(n.credentials ? { credentials: n.credentials } : {}),
        },
      });
      report.nodes.push({
        n8nName: n.name,
        n8nType: n.type,
        n8nTypeVersion: n.typeVersion,
        id: ctx.id,
        type: PLACEHOLDER_NODE_TYPE,
        status: "placeholder",
      });
      const all = Array.from({ length: PLACEHOLDER_MAX_PORTS }, (_, i) => placeholderPort(i));
      ports.set(n.name, { outputs: all, inputs: all, outId: ctx.id });
      continue;
    }
    const node: FlowNode = { ...base, type: m.type, config: m.config, onError: "stop", ...behaviour(n, ctx) };
    nodes.push(node);
    report.nodes.push({
      n8nName: n.name,
      n8nType: n.type,
      n8nTypeVersion: n.typeVersion,
      id: ctx.id,
      type: m.type,
      status: "mapped",
    });
    let outId = ctx.id;
    if (m.after && refIds.get(n.name) !== `${ctx.id}${m.after.idSuffix}`)
      throw new Error(`importer bug: ${n.type} inserts a node that reshapedBy does not know`);
    if (m.after) {
      outId = `${ctx.id}${m.after.idSuffix}`;
      nodes.push({
        id: outId,
        type: m.after.type,
        typeVersion: 1,
        name: m.after.name,
        config: m.after.config,
        position: { x: n.position[0] + 120, y: n.position[1] + 80 },
        onError: "stop",
      });
    }
    const outputs = [...(m.outputs ?? ["main"])];
    if (node.onError === "route") outputs.push("error");
    ports.set(n.name, { outputs, inputs: m.inputs ?? ["main"], outId });
    if (n.notes) {
      notes.push({
        id: `note_${ctx.id}`,
        text: n.notes,
        position: { x: n.position[0], y: n.position[1] + 120 },
        size: DEFAULT_NOTE_SIZE,
      });
    }
  }
  for (const n of realNodes) {
    const kept = nodes.find((x) => x.id === ids.get(n.name));
    if (kept?.type === PLACEHOLDER_NODE_TYPE && n.notes)
      notes.push({
        id: `note_${kept.id}`,
        text: n.notes,
        position: { x: n.position[0], y: n.position[1] + 120 },
        size: DEFAULT_NOTE_SIZE,
      });
  }

  const edges = connect(wf, ids, ports, report);
  if (wf.settings?.errorWorkflow)
    report.loss(
      undefined,
      "settings.errorWorkflow",
      `the error workflow "${wf.settings.errorWorkflow}" is not linked: set settings.errorFlowId after importing it`,
    );
  const pinData = pins(wf, ids);
  const flow: FlowFile = {
    name: wf.name?.trim() || options.fallbackName || "Imported from n8n",
    description: "Imported from n8n",
    nodes,
    edges,
    ...(wf.settings?.timezone && wf.settings.timezone !== "DEFAULT"
      ? { settings: { timezone: wf.settings.timezone } }
      : {}),
    notes,
    ...(pinData ? { pinData } : {}),
  };
  return {
    flow,
    report: {
      source: "n8n",
      workflowName: flow.name,
      nodes: report.nodes,
      losses: report.losses,
      problems: report.problems,
    },
  };
}

/** The id suffix of the node a mapper inserts after this one (must agree with the mappers' `after`). */
function reshapedBy(n: N8nNode): string | undefined {
  if (n.type === "n8n-nodes-base.executeWorkflowTrigger") return "_items";
  if (n.type !== "n8n-nodes-base.httpRequest") return undefined;
  const options = n.parameters.options as
    | { response?: { response?: { fullResponse?: boolean } } }
    | undefined;
  return options?.response?.response?.fullResponse ? undefined : "_body";
}

function contextFor(
  n: N8nNode,
  id: string,
  refIds: Map<string, string>,
  report: ReportBuilder,
  options: ImportOptions,
): MapContext {
  const ctx: MapContext = {
    n8n: n,
    id,
    node: n.name,
    params: n.parameters,
    report,
    refs: (name) => refIds.get(name),
    value: (v, field) => translateValue(v, field, ctx),
    credential(type) {
      const ref = n.credentials?.[type] ?? Object.values(n.credentials ?? {})[0];
      if (!ref) {
        report.problem(
          "credential_unresolved",
          n.name,
          "credentialId",
          `no ${type} credential is set on the n8n node: pick one`,
        );
        return undefined;
      }
      const ours = (ref.id ? options.credentials?.[ref.id] : undefined) ?? options.credentials?.[ref.name];
      if (!ours)
        report.problem(
          "credential_unresolved",
          n.name,
          "credentialId",
          `uses the n8n ${type} credential "${ref.name}"${ref.id ? ` (id ${ref.id})` : ""}: create or pick a Switchyard credential for it (secrets are not exported)`,
        );
      return ours;
    },
    subflow: (wid) => options.workflows?.[wid],
    loss: (field, message) => report.loss(n.name, field, message),
  };
  return ctx;
}

/** Error handling and retries: n8n's node settings → ours. */
function behaviour(n: N8nNode, ctx: MapContext): Partial<FlowNode> {
  const out: Partial<FlowNode> = {};
  if (n.onError === "continueErrorOutput") out.onError = "route";
  else if (n.onError === "continueRegularOutput" || n.continueOnFail) out.onError = "continue";
  if (n.retryOnFail) {
    out.retry = {
      maxAttempts: Math.max(1, Math.min(100, n.maxTries ?? 3)),
      backoff: "fixed",
      delayMs: Math.max(0, Math.min(86_400_000, n.waitBetweenTries ?? 1000)),
    };
  }
  if (n.alwaysOutputData) ctx.loss("alwaysOutputData", "a node with no output does not emit an empty item");
  if (n.executeOnce) ctx.loss("executeOnce", "the node runs for every item, not only the first");
  return out;
}

type Ports = Map<string, { outputs: readonly string[]; inputs: readonly string[]; outId: string }>;

/** n8n's connections (by name and output index) → edges between named ports. */
function connect(wf: N8nWorkflow, ids: Map<string, string>, ports: Ports, report: ReportBuilder): FlowEdge[] {
  const edges: FlowEdge[] = [];
  const linked = new Set<string>();
  // The unwrap node after an HTTP request hangs off its main port.
  for (const [name, p] of ports) {
    const id = ids.get(name)!;
    if (p.outId !== id) edges.push({ from: { node: id, port: "main" }, to: { node: p.outId, port: "main" } });
  }
  for (const [source, byType] of Object.entries(wf.connections)) {
    const from = ports.get(source);
    for (const [type, outputs] of Object.entries(byType)) {
      for (const [index, targets] of outputs.entries()) {
        for (const target of targets ?? []) {
          const to = ports.get(target.node);
          const drop = (why: string) =>
            report.problem(
              "connection_dropped",
              source,
              undefined,
              `connection to "${target.node}" dropped: ${why}`,
            );
          if (!from || !to) {
            drop(`${!from ? `"${source}"` : `"${target.node}"`} is not a node of this workflow`);
            continue;
          }
          if (type !== "main") {
            drop(`n8n "${type}" connections (AI sub-nodes) have no equivalent`);
            continue;
          }
          // An error output routes from the node itself, not from an unwrap node after it.
          const port = from.outputs[index];
          const inPort = to.inputs[target.index];
          if (!port || !inPort) {
            drop(`output ${index} → input ${target.index} has no port here`);
            continue;
          }
          const fromId = port === "error" ? ids.get(source)! : from.outId;
          const toId = ids.get(target.node)!;
          // Validation refuses two edges between the same ports (every item would go through twice).
          const link = JSON.stringify([fromId, port, toId, inPort]);
          if (linked.has(link)) {
            drop("it repeats an earlier connection between the same outputs and inputs");
            continue;
          }
          linked.add(link);
          edges.push({ from: { node: fromId, port }, to: { node: toId, port: inPort } });
        }
      }
    }
  }
  return edges;
}

/** n8n's pinned data (by node name) → ours (by node id). */
function pins(wf: N8nWorkflow, ids: Map<string, string>) {
  if (!wf.pinData) return undefined;
  const out: Record<string, { json: Record<string, unknown> }[]> = {};
  for (const [name, items] of Object.entries(wf.pinData)) {
    const id = ids.get(name);
    if (id) out[id] = items.map((i) => ({ json: i.json }));
  }
  return Object.keys(out).length ? out : undefined;
}
