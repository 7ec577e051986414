import type { FlowDefinition, Item, NodeRegistry } from "@switchyard/engine";
import type { PrismaClient } from "@switchyard/db";
import type { z } from "zod";
import { exampleOf } from "../triggers/payload-shape";

/** An example payload, or undefined for a schema the example builder cannot read. */
function exampleFrom(schema: z.ZodType): Record<string, unknown> | undefined {
  try {
    const v = exampleOf(schema);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return undefined;
  }
}

/** Where the sample data of the expression help came from. */
export type SampleSource =
  | { kind: "pinned" }
  | { kind: "run"; runId: string }
  | { kind: "schema" }
  | { kind: "none" };

/** What an expression in one node's config sees, taken from real data where there is some. */
export interface ExpressionSample {
  source: SampleSource;
  scope: {
    item: Record<string, unknown> | undefined;
    items: Record<string, unknown>[];
    trigger: Record<string, unknown> | undefined;
    nodes: Record<string, { items: Record<string, unknown>[]; item: Record<string, unknown> | undefined }>;
  };
}

interface StepRow {
  nodeId: string;
  input: string | null;
  output: string | null;
}

const parse = (json: string | null): unknown => {
  try {
    return json === null ? null : JSON.parse(json);
  } catch {
    return null;
  }
};
const jsonOf = (items: unknown): Record<string, unknown>[] =>
  Array.isArray(items) ? items.map((i) => ((i as Item)?.json ?? {}) as Record<string, unknown>) : [];
const firstPort = (output: unknown): Record<string, unknown>[] => {
  if (!output || typeof output !== "object") return [];
  return Object.values(output as Record<string, unknown>).flatMap((items) => jsonOf(items));
};

/**
 * The data the editor's completion and preview use for a node's expressions, in this order: its
 * parents' pinned data; its input in the latest run it took part in; before any run, an example built
 * from the trigger's payload schema (for nodes fed by the trigger directly).
 */
export function createExpressionSamples(d: { prisma: PrismaClient; registry: NodeRegistry }) {
  // Through Prisma: asked when a person opens a node, and the same on SQLite and PostgreSQL.
  const lastRunWith = (flowId: string, nodeId: string) =>
    d.prisma.step.findFirst({
      where: { nodeId, input: { not: null }, run: { flowId } },
      orderBy: { id: "desc" },
      select: { runId: true },
    });
  // Latest row per node of the run (ids are time-ordered): the run's final outputs.
  const stepsOf = (runId: string): Promise<StepRow[]> =>
    d.prisma.step.findMany({
      where: { runId },
      orderBy: { id: "asc" },
      select: { nodeId: true, input: true, output: true },
    });

  return async function sample(
    flowId: string,
    flow: FlowDefinition,
    nodeId: string,
  ): Promise<ExpressionSample> {
    const triggerNode = flow.nodes.find((n) => d.registry.get(n.type)?.kind === "trigger");
    const parents = flow.edges.filter((e) => e.to.node === nodeId).map((e) => e.from.node);
    const pins = flow.pinData ?? {};
    const scope: ExpressionSample["scope"] = { item: undefined, items: [], trigger: undefined, nodes: {} };
    const setItems = (items: Record<string, unknown>[]) => {
      scope.items = items;
      scope.item = items[0];
    };

    const run = await lastRunWith(flowId, nodeId);
    if (run) {
      for (const row of await stepsOf(run.runId)) {
        const items = firstPort(parse(row.output));
        scope.nodes[row.nodeId] = { items, item: items[0] };
        if (row.nodeId === triggerNode?.id) scope.trigger = items[0];
        if (row.nodeId === nodeId) setItems(jsonOf(parse(row.input)));
      }
    }
    const pinnedParents = parents.filter((p) => (pins[p]?.length ?? 0) > 0);
    for (const [id, items] of Object.entries(pins))
      scope.nodes[id] = { items: jsonOf(items), item: jsonOf(items)[0] };
    if (triggerNode && pins[triggerNode.id]?.length) scope.trigger = jsonOf(pins[triggerNode.id])[0];
    if (parents.length > 0 && pinnedParents.length === parents.length) {
      setItems(parents.flatMap((p) => jsonOf(pins[p])));
      return { source: { kind: "pinned" }, scope };
    }
    if (run) return { source: { kind: "run", runId: run.runId }, scope };

    const def = triggerNode ? d.registry.get(triggerNode.type) : undefined;
    const example = def?.kind === "trigger" ? exampleFrom(def.payload) : undefined;
    if (example) {
      scope.trigger ??= example;
      scope.nodes[triggerNode!.id] ??= { items: [example], item: example };
      if (parents.length === 1 && parents[0] === triggerNode!.id) setItems([scope.trigger]);
      return { source: { kind: "schema" }, scope };
    }
    return { source: { kind: "none" }, scope };
  };
}

export type ExpressionSamples = ReturnType<typeof createExpressionSamples>;

/** Most paths offered for completion, and how deep they go: enough to help, bounded for any payload. */
const MAX_PATHS = 300;
const MAX_DEPTH = 5;

/**
 * The field paths of a sample scope as an expression spells them (`item.customer.name`,
 * `nodes.fetch.item.body`, `trigger.tags[0]`), breadth first so that short paths survive the cap.
 */
export function pathsOf(scope: ExpressionSample["scope"]): string[] {
  const out: string[] = [];
  const queue: [string, unknown, number][] = [
    ["item", scope.item, 0],
    ["trigger", scope.trigger, 0],
    ...Object.entries(scope.nodes).map(([id, n]): [string, unknown, number] => [
      `nodes.${id}.item`,
      n.item,
      0,
    ]),
  ];
  while (queue.length && out.length < MAX_PATHS) {
    const [path, value, depth] = queue.shift()!;
    if (depth >= MAX_DEPTH || value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      if (value.length) {
        out.push(`${path}[0]`);
        queue.push([`${path}[0]`, value[0], depth + 1]);
      }
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      // A key JSONata cannot read bare is quoted with backticks.
      const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `\`${key.replaceAll("`", "")}\``;
      out.push(`${path}.${name}`);
      queue.push([`${path}.${name}`, child, depth + 1]);
      if (out.length >= MAX_PATHS) break;
    }
  }
  return out;
}
