import type { FlowRepo } from "@switchyard/db";
import { NodeError, type SubflowCaller } from "@switchyard/engine";
import type { ClaimedRun, RunOutcome, RunQueue } from "../queue/types";
import type { ExecContext, InlineExecutor } from "./executor";

/** Lease owner of child runs executed inside their parent: orphans of these are failed, not re-queued. */
export const SUBFLOW_OWNER_PREFIX = "subflow:";

/**
 * `flow.call`: the child runs inline, inside the parent's worker slot (no queue round trip, so a chain of
 * calls can't deadlock a full worker), as its own run row with its own trace. The called flow's trigger
 * payload is `{ items: [<json of each item>] }`; its last items come back as the step's output.
 */
export function createSubflowCaller(o: {
  flows: FlowRepo;
  enqueue: RunQueue["enqueue"];
  /** Records the child's outcome with its buffered checkpoints (the queue's own way). */
  finishChild(runId: string, owner: string, outcome: RunOutcome): Promise<void>;
}) {
  return (parent: ClaimedRun, exec: ExecContext, execute: InlineExecutor): SubflowCaller => ({
    async call(flowId, items, opts) {
      const flow = await o.flows.get(flowId);
      if (!flow) throw new NodeError("input_invalid", `flow ${flowId} not found`, { retryable: false });
      const owner = `${SUBFLOW_OWNER_PREFIX}${parent.id}`;
      const admission = await o.enqueue({
        flowId,
        flowVersion: flow.currentVersion,
        channel: "subflow",
        payloadJson: JSON.stringify({ items: items.map((i) => i.json), parentRunId: parent.id }),
        claimFor: { workerId: owner, leaseMs: 7 * 86_400_000 },
      });
      const child = admission.claimed!;
      const depth = opts.depth ?? exec.depth + 1;
      const outcome = await execute(child, opts.signal, { depth, policyChannel: exec.policyChannel });
      await o.finishChild(child.id, owner, {
        ...outcome,
        ...(outcome.status === "waiting"
          ? {
              status: "failed",
              error: { code: "not_supported", message: "a called flow cannot wait durably" },
            }
          : {}),
      });
      if (outcome.status !== "succeeded") {
        throw new NodeError(
          "input_invalid",
          `called flow ${flowId} ${outcome.status}: ${outcome.error?.message ?? ""} (run ${child.id})`,
          {
            retryable: false,
          },
        );
      }
      return outcome.output ?? [];
    },
  });
}
