/**
 * The flow engine alone on W2 (webhook → data.set → webhook.respond): `runFlow` as the host calls it for an
 * inline webhook run (validated flow, compiled graph, shared expression evaluator, a fresh run), with a
 * step store that keeps nothing, so neither SQLite nor JSON of the steps is in the figure. Prints CPU and
 * wall time per run for each batch; compare two builds by alternating processes (the machine drifts).
 *
 *   npx tsx bench/engine-w2.ts [runs per batch = 50000] [batches = 5]
 */
import {
  compileGraph,
  createExpressionEvaluator,
  FlowDefinition,
  type NodeContext,
  runFlow,
  type StepStore,
} from "../packages/engine/src/index";
import { registry } from "../packages/nodes/src/index";
import { w2 } from "./webhook-targets";

const RUNS = Number(process.argv[2] ?? 50_000);
const BATCHES = Number(process.argv[3] ?? 5);

const flow = FlowDefinition.parse(w2);
const graph = compileGraph(flow, registry);
const expressions = createExpressionEvaluator();
// What the webhook handler hands the engine for `{"n": 1}` (headers trimmed to a typical few).
const payload = () => ({
  method: "POST",
  path: "/hooks/w2",
  params: {},
  headers: { host: "127.0.0.1", "content-type": "application/json", "content-length": "8" },
  query: {},
  body: { n: 1 },
  receivedAt: new Date().toISOString(),
});

/** Keeps no checkpoints: the figure is the engine's, not the store's. */
const stepStore: StepStore = { load: async () => [], save: async () => {} };

async function batch(n: number): Promise<{ cpuUs: number; wallUs: number }> {
  const respond = () => {};
  const t = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    await runFlow({
      flow,
      graph,
      registry,
      validate: false,
      expressions,
      run: { id: `run-${i}`, flowId: "w2", startedAt: new Date().toISOString(), channel: "webhook" },
      trigger: payload(),
      stepStore,
      fresh: true,
      ctxFactory: (base) => Object.assign(base, { webhook: { respond } }) as unknown as NodeContext,
    });
  }
  const c = process.cpuUsage(c0);
  return { cpuUs: (c.user + c.system) / n, wallUs: Number(process.hrtime.bigint() - t) / 1000 / n };
}

await batch(Math.min(RUNS, 20_000)); // warm-up: compile the code paths
console.log(`engine alone, W2, ${RUNS} runs a batch, node ${process.version}`);
for (let b = 0; b < BATCHES; b++) {
  const r = await batch(RUNS);
  console.log(`batch ${b + 1}: ${r.cpuUs.toFixed(1)} µs CPU, ${r.wallUs.toFixed(1)} µs wall per run`);
}
