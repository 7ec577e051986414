import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InMemoryStepStore } from "../src/executor/step-store";
import { runFlow } from "../src/executor/run-flow";
import { parseFlow } from "@switchyard/contracts/flow";
import { validateFlow } from "../src/validate/validate-flow";
import { createTestRegistry } from "./registry";

interface Fixture {
  description: string;
  flow: unknown;
  trigger: unknown;
  cancelOnStart?: string;
  maxNodeVisits?: number;
  expect: {
    status: string;
    errorCode?: string;
    steps?: Record<string, string>;
    stepCount?: Record<string, number>;
    attempts?: Record<string, number>;
    stepErrors?: Record<string, string>;
    stepOutputs?: Record<string, unknown>;
    output?: unknown;
  };
}

const dir = join(import.meta.dirname, "fixtures");
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => ({
    name: f.replace(/\.json$/, ""),
    fx: JSON.parse(readFileSync(join(dir, f), "utf8")) as Fixture,
  }));

describe("fixture flows", () => {
  it("has the fixtures the executor promises to cover", () => {
    const names = fixtures.map((f) => f.name);
    for (const required of ["branch", "join", "per-item", "merge", "retry-then-success", "retry-exhausted"]) {
      expect(names).toContain(required);
    }
    for (const required of [
      "on-error-route",
      "on-error-continue",
      "on-error-stop",
      "timeout",
      "cancel",
      "loop-cap",
    ]) {
      expect(names).toContain(required);
    }
  });

  for (const { name, fx } of fixtures) {
    it(`${name}: ${fx.description}`, async () => {
      const registry = createTestRegistry();
      const parsed = parseFlow(fx.flow);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      expect(validateFlow(parsed.flow, registry)).toEqual([]);
      const abort = new AbortController();
      const store = new InMemoryStepStore();
      const result = await runFlow({
        flow: parsed.flow,
        registry,
        run: { id: `run-${name}`, flowId: name, startedAt: new Date().toISOString(), channel: "manual" },
        trigger: fx.trigger,
        stepStore: store,
        signal: abort.signal,
        maxNodeVisits: fx.maxNodeVisits,
        onEvent: (e) => {
          if (e.type === "step.started" && e.nodeId === fx.cancelOnStart) abort.abort();
        },
      });
      const want = fx.expect;
      expect(result.status).toBe(want.status);
      expect(result.error?.code).toBe(want.errorCode);
      const byId = Object.fromEntries(result.steps.map((s) => [s.stepId, s]));
      if (want.steps) {
        expect(Object.fromEntries(result.steps.map((s) => [s.stepId, s.status]))).toEqual(want.steps);
      }
      if (want.stepCount) {
        const counts: Record<string, number> = {};
        for (const s of result.steps) counts[s.nodeId] = (counts[s.nodeId] ?? 0) + 1;
        expect(counts).toMatchObject(want.stepCount);
      }
      for (const [id, n] of Object.entries(want.attempts ?? {})) expect(byId[id]?.attempt).toBe(n);
      for (const [id, code] of Object.entries(want.stepErrors ?? {}))
        expect(byId[id]?.error?.code).toBe(code);
      for (const [id, outputs] of Object.entries(want.stepOutputs ?? {}))
        expect(byId[id]?.outputs).toEqual(outputs);
      if (want.output !== undefined) expect(result.output).toEqual(want.output);
      // Every step the result reports was checkpointed, latest record last.
      const saved = store.all(result.runId);
      for (const s of result.steps) expect(saved.filter((r) => r.stepId === s.stepId).at(-1)).toBe(s);
    });
  }
});
