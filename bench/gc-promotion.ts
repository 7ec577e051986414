/**
 * How many bytes per run survive V8's minor GCs and are promoted to the old generation, where only a
 * mark-compact (a pause of 8–16 ms on the webhook hot path) frees them. Each case runs in a child process
 * under `node --trace-gc-nvp` for a few seconds; the figures are that process's own GC trace.
 *
 *   npx tsx bench/gc-promotion.ts [seconds=3]
 *
 * Cases: the engine running W2 without its respond node (webhook trigger → data.set with two expressions),
 * and, in isolation, an object literal with a getter made per iteration next to the same getter on a
 * class's prototype (see packages/engine/src/executor/step-context.ts).
 */
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const seconds = Number(process.argv[2] ?? 3);
const CASES = ["engine", "getter-literal", "getter-class"] as const;
type Case = (typeof CASES)[number];

async function child(which: Case, ms: number): Promise<number> {
  const end = Date.now() + ms;
  let n = 0;
  const loops = (body: () => Promise<void> | void) =>
    Promise.all(
      Array.from({ length: 20 }, async () => {
        while (Date.now() < end) {
          await body();
          n++;
          await new Promise((r) => setImmediate(r));
        }
      }),
    );
  if (which === "engine") {
    const e = await import("../packages/engine/src/index");
    const { registry } = await import("../packages/nodes/src/index");
    const { w2 } = await import("./webhook-targets");
    // W2 without its respond node (the engine alone has no HTTP request to answer).
    const flow = e.FlowDefinition.parse({
      nodes: w2.nodes.filter((n) => n.id !== "respond"),
      edges: w2.edges.filter((edge) => edge.to.node !== "respond"),
    });
    const graph = e.compileGraph(flow, registry);
    const expressions = e.createExpressionEvaluator();
    const stepStore = { load: async () => [], save: async () => {} };
    await loops(async () => {
      await e.runFlow({
        flow,
        graph,
        registry,
        validate: false,
        expressions,
        stepStore,
        run: { id: `r${n}`, flowId: "f", startedAt: "", channel: "manual" },
        trigger: { body: { n } },
        ctxFactory: (b) => b as never,
      });
    });
  } else {
    class WithGetter {
      constructor(readonly state: object) {}
      get signal() {
        return this.state;
      }
    }
    await loops(async () => {
      const state = { items: Array.from({ length: 40 }, (_, i) => ({ i, s: `x${i}` })) };
      if (which === "getter-literal") {
        const ctx = {
          get signal() {
            return state;
          },
        };
        await Promise.resolve(ctx);
      } else await Promise.resolve(new WithGetter(state));
    });
  }
  return n;
}

if (process.env.GC_PROMOTION_CASE) {
  const n = await child(process.env.GC_PROMOTION_CASE as Case, Number(process.env.GC_PROMOTION_MS));
  console.log(`RUNS ${n}`);
} else {
  console.log(
    `gc-promotion: node ${process.version}, ${cpus().length} cpus, load ${loadavg()[0]!.toFixed(1)}, ${seconds} s per case`,
  );
  const rows: Record<string, Record<string, string>> = {};
  for (const which of CASES) {
    const out = spawnSync(
      process.execPath,
      ["--trace-gc-nvp", "--import", "tsx", fileURLToPath(import.meta.url)],
      {
        env: { ...process.env, GC_PROMOTION_CASE: which, GC_PROMOTION_MS: String(seconds * 1000) },
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
      },
    ).stdout;
    const runs = Number(/RUNS (\d+)/.exec(out)?.[1] ?? 0);
    let promoted = 0;
    let scavenges = 0;
    let markCompacts = 0;
    for (const line of out.split("\n")) {
      if (line.includes(" gc=s ")) {
        scavenges++;
        promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      } else if (line.includes(" gc=mc ")) markCompacts++;
    }
    rows[which] = {
      "runs/s": String(Math.round(runs / seconds)),
      "promoted B/run": runs ? (promoted / runs).toFixed(0) : "-",
      scavenges: String(scavenges),
      "mark-compacts": String(markCompacts),
    };
  }
  console.table(rows);
}
