import {
  reusedStepReason,
  type StepRunMode,
  StepRunMode as StepRunModeSchema,
} from "@switchyard/contracts/runs";
import type { RunChannel } from "@switchyard/contracts/runs";
import { newId } from "@switchyard/db";
import { compileGraph, type NodeRegistry } from "@switchyard/engine";
import type Database from "better-sqlite3";
import type { ClaimedRun } from "../queue/types";
import type { CompiledFlow } from "./flow-cache";
import { planStepRun } from "./step-plan";

interface LatestStep {
  id: string;
  nodeId: string;
  status: string;
  truncated: number;
}

/**
 * Step runs: the editor's "run this node" and "run up to here", and a failed run's retry. Outputs taken
 * from an earlier run are copied into the new run as its own checkpoints (reason `reused`), so the engine
 * replays them exactly as it does when resuming after a crash: those nodes are not executed again, and
 * the new run's trace is complete.
 */
export function createStepRuns(d: { sql: Database.Database; registry: NodeRegistry }) {
  // The last attempt of each step of a run; earlier attempts of a retried step are history.
  const latest = d.sql.prepare<[string], LatestStep>(
    `SELECT s.id, s.nodeId, s.status, s.truncated FROM "Step" s
     WHERE s.runId = ? AND s.id = (SELECT MAX(t.id) FROM "Step" t WHERE t.runId = s.runId AND t.stepId = s.stepId)
     ORDER BY s.id`,
  );
  const hasSteps = d.sql.prepare<[string], { one: number }>(
    `SELECT 1 AS one FROM "Step" WHERE runId = ? LIMIT 1`,
  );
  const recentRuns = d.sql.prepare<[string], { id: string; channel: RunChannel }>(
    `SELECT id, channel FROM "Run" WHERE flowId = ? AND status IN ('succeeded', 'failed') ORDER BY id DESC LIMIT 20`,
  );
  const copy = d.sql.prepare(
    `INSERT INTO "Step" (id, runId, stepId, nodeId, visit, attempt, status, port, reason, input, output, truncated,
       resumeAt, retryAt, startedAt, endedAt, durationMs, logs)
     SELECT ?, ?, stepId, nodeId, visit, attempt, status, port, ?, input, output, truncated,
       resumeAt, retryAt, startedAt, endedAt, durationMs, logs FROM "Step" WHERE id = ?`,
  );
  // A truncated output is not the real output: that node runs again rather than feeding on a stub.
  const reusable = (s: LatestStep) => s.status === "succeeded" && s.truncated === 0;
  const seed = d.sql.transaction((runId: string, from: string, nodes: ((id: string) => boolean) | null) => {
    for (const s of latest.all(from))
      if (reusable(s) && (nodes === null || nodes(s.nodeId)))
        copy.run(newId(), runId, reusedStepReason, s.id);
  });

  return {
    /**
     * For a `node` run: the latest run of the flow holding a reusable output of every node the target
     * needs, or undefined (then the person has to pin data or run up to the node first).
     */
    inputRun(
      flowId: string,
      compiled: CompiledFlow,
      nodeId: string,
    ): { runId?: string; channel?: RunChannel; missing: string[] } {
      const { reuse } = planStepRun(compiled.flow, compiled.graph.triggers[0], "node", nodeId);
      if (reuse.size === 0) return { missing: [] };
      // Named in the flow's order, so the message reads upstream first.
      const needed = compiled.flow.nodes.map((n) => n.id).filter((n) => reuse.has(n));
      let missing = needed;
      for (const { id, channel } of recentRuns.all(flowId)) {
        const have = new Set(
          latest
            .all(id)
            .filter(reusable)
            .map((s) => s.nodeId),
        );
        const lacking = needed.filter((n) => !have.has(n));
        if (lacking.length === 0) return { runId: id, channel, missing: [] };
        if (lacking.length < missing.length) missing = lacking;
      }
      return { missing };
    },

    /**
     * The flow a claimed step run executes, with the earlier run's outputs copied in on its first start
     * (a resumed run already has them, and its own checkpoints after them).
     */
    prepare(run: ClaimedRun, compiled: CompiledFlow): CompiledFlow {
      const mode: StepRunMode = StepRunModeSchema.parse(run.stepMode);
      const target = run.stepNode ?? "";
      const triggerId = compiled.graph.triggers[0];
      const plan = planStepRun(compiled.flow, triggerId, mode, target);
      if (run.rerunOf && !hasSteps.get(run.id)) {
        const pins = compiled.flow.pinData ?? {};
        seed(
          run.id,
          run.rerunOf,
          mode === "retry" ? null : (id) => plan.reuse.has(id) || (id === triggerId && !pins[id]?.length),
        );
      }
      if (mode === "retry") return compiled;
      return { flow: plan.flow, graph: compileGraph(plan.flow, d.registry) };
    },
  };
}

export type StepRuns = ReturnType<typeof createStepRuns>;
