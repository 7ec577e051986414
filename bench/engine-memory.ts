/**
 * Engine overhead in memory: a 100-node linear flow of trivial nodes, in-memory step store.
 * Prints steps/second and p50/p99 per-step overhead (time between one node finishing and the next
 * starting, which is the executor's own cost: checkpoint save, state machine, config resolution).
 *
 *   npx tsx bench/engine-memory.ts [runs]
 */
// zod resolved through the engine package (the repository root does not depend on it).
import { z } from "../packages/engine/node_modules/zod";
import {
  type AnyNodeType,
  compileGraph,
  createExpressionEvaluator,
  FlowDefinition,
  InMemoryStepStore,
  type NodeDefinition,
  runFlow,
} from "../packages/engine/src/index";

const NODES = 100;
const RUNS = Number(process.argv[2] ?? 200);

const trigger: AnyNodeType = {
  kind: "trigger",
  type: "bench.trigger",
  typeVersion: 1,
  title: "Bench trigger",
  description: "starts a bench run",
  category: "trigger",
  icon: "bench",
  ports: ["main"],
  channel: "manual",
  config: z.object({}),
  example: {},
  payload: z.record(z.string(), z.unknown()),
};
const ends = new Map<string, number>();
const gaps: number[] = [];
const pass: NodeDefinition = {
  kind: "action",
  type: "bench.pass",
  typeVersion: 1,
  title: "Pass",
  description: "passes items on",
  category: "bench",
  icon: "bench",
  ports: ["main"],
  inputs: ["main"],
  runMode: "once",
  config: z.object({ label: z.string() }),
  example: { label: "x" },
  execute: async ({ input, ctx }) => {
    const prev = ends.get(`${ctx.run.id}:${Number(ctx.nodeId.slice(1)) - 1}`);
    if (prev !== undefined) gaps.push(performance.now() - prev);
    const out = { items: input };
    ends.set(`${ctx.run.id}:${ctx.nodeId.slice(1)}`, performance.now());
    return out;
  },
};
const types = new Map<string, AnyNodeType>([
  [trigger.type, trigger],
  [pass.type, pass],
]);
const registry = { get: (t: string) => types.get(t) };

const nodes = [{ id: "t", type: "bench.trigger" }];
const edges = [];
for (let i = 0; i < NODES; i++) {
  // Every tenth node carries an expression, the rest static config.
  nodes.push({
    id: `n${i}`,
    type: "bench.pass",
    config: { label: i % 10 === 0 ? "=item.name" : "static" },
  } as never);
  edges.push({
    from: { node: i === 0 ? "t" : `n${i - 1}`, port: "main" },
    to: { node: `n${i}`, port: "main" },
  });
}
const flow = FlowDefinition.parse({ nodes, edges, settings: { maxRunMs: 60_000, concurrency: 4 } });
const graph = compileGraph(flow, registry);
const expressions = createExpressionEvaluator();
const store = new InMemoryStepStore();

async function once(i: number) {
  const result = await runFlow({
    flow,
    graph,
    registry,
    run: { id: `run-${i}`, flowId: "bench", startedAt: new Date().toISOString(), channel: "manual" },
    trigger: { name: "bench", n: i },
    stepStore: store,
    expressions,
    validate: false,
  });
  if (result.status !== "succeeded") throw new Error(`run failed: ${JSON.stringify(result.error)}`);
}

for (let i = 0; i < 20; i++) await once(-i - 1); // warm-up (JIT, expression cache)
gaps.length = 0;
const started = performance.now();
for (let i = 0; i < RUNS; i++) await once(i);
const elapsed = performance.now() - started;

gaps.sort((a, b) => a - b);
const pct = (p: number) => gaps[Math.min(gaps.length - 1, Math.floor((p / 100) * gaps.length))]!;
const steps = RUNS * (NODES + 1);
console.log(
  `engine-memory: ${RUNS} runs of a ${NODES}-node linear flow (in-memory step store, validation cached)`,
);
console.log(`  steps/second          ${Math.round(steps / (elapsed / 1000)).toLocaleString("en-US")}`);
console.log(
  `  mean per step         ${((elapsed * 1000) / steps).toFixed(1)} µs (whole run incl. node bodies)`,
);
console.log(
  `  per-step overhead mean ${((gaps.reduce((a, b) => a + b, 0) / gaps.length) * 1000).toFixed(1)} µs`,
);
console.log(`  per-step overhead p50 ${(pct(50) * 1000).toFixed(1)} µs`);
console.log(`  per-step overhead p99 ${(pct(99) * 1000).toFixed(1)} µs`);
console.log(`  per-step overhead max ${(gaps.at(-1)! * 1000).toFixed(0)} µs`);

// Validation cost, paid once per run unless the caller passes validate: false for a flow it checked.
const { validateFlow } = await import("../packages/engine/src/index");
const vStart = performance.now();
for (let i = 0; i < 200; i++) validateFlow(flow, registry);
console.log(
  `  validateFlow (100 nodes) ${(((performance.now() - vStart) / 200) * 1000).toFixed(0)} µs per call`,
);
