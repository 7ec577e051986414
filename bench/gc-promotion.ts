/**
 * How many bytes per run survive V8's minor GCs and are promoted to the old generation, where only a
 * mark-compact (a pause of 8–16 ms on the webhook hot path) frees them. Each case runs in a child process
 * under `node --trace-gc-nvp` for a few seconds; the figures are that process's own GC trace.
 *
 *   npx tsx bench/gc-promotion.ts [seconds=3]
 *
 * Cases: the engine running a W2-like flow (trigger → data.set with two expressions), and two patterns in
 * isolation, each next to the shape that replaced it (see packages/engine/src/executor/step-context.ts and
 * packages/engine/src/util/transient-map.ts).
 */
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const seconds = Number(process.argv[2] ?? 3);
const CASES = ["engine", "getter-literal", "getter-class", "map-registry", "transient-map"] as const;
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
    const flow = e.FlowDefinition.parse({
      nodes: [
        { id: "hook", type: "trigger.manual", config: {} },
        {
          id: "set",
          type: "data.set",
          config: {
            fields: [
              { name: "ok", value: "=true" },
              { name: "n", value: "=item.body.n + 1" },
            ],
            keepOnlySet: true,
          },
        },
      ],
      edges: [{ from: { node: "hook", port: "main" }, to: { node: "set", port: "main" } }],
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
    const { TransientMap } = await import("../packages/engine/src/util/transient-map");
    class WithGetter {
      constructor(readonly state: object) {}
      get signal() {
        return this.state;
      }
    }
    // Registry entries stay a few milliseconds, as a request's do, while other work allocates.
    const inFlight = () =>
      new Promise((r) =>
        setTimeout(() => {
          for (let i = 0; i < 200; i++) void { junk: [i, i + 1, i + 2] };
          r(undefined);
        }, 5),
      );
    const registry = new Map<string, object>();
    const transient = new TransientMap<object>();
    await loops(async () => {
      const state = { items: Array.from({ length: 40 }, (_, i) => ({ i, s: `x${i}` })) };
      const id = `r${Math.random()}`;
      if (which === "getter-literal") {
        const ctx = {
          get signal() {
            return state;
          },
        };
        await Promise.resolve(ctx);
      } else if (which === "getter-class") await Promise.resolve(new WithGetter(state));
      else if (which === "map-registry") {
        registry.set(id, state);
        await inFlight();
        registry.delete(id);
      } else {
        transient.set(id, state);
        await inFlight();
        transient.delete(id);
      }
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
