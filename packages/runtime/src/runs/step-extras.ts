import { TransientMap } from "@switchyard/engine";
/** What a step produced besides its items: log lines (console of the code node, node logs) and agent turns. */
export interface StepExtrasData {
  logs: { level: "info" | "warn" | "error"; message: string; data?: unknown; at: string }[];
  agentTurns: unknown[];
}

const MAX_LOG_LINES = 500;

/**
 * Collects extras per (run, node) while the node runs; the step store takes them when it checkpoints the
 * step. A node's attempts run one after another, so keying by node id is enough.
 */
export function createStepExtras() {
  const pending = new TransientMap<StepExtrasData>();
  const slot = (runId: string, nodeId: string) => {
    const key = `${runId}\u0000${nodeId}`;
    let s = pending.get(key);
    if (!s) {
      s = { logs: [], agentTurns: [] };
      pending.set(key, s);
    }
    return s;
  };
  return {
    log(
      runId: string,
      nodeId: string,
      level: StepExtrasData["logs"][number]["level"],
      message: string,
      data?: unknown,
    ) {
      const s = slot(runId, nodeId);
      if (s.logs.length < MAX_LOG_LINES)
        s.logs.push({
          level,
          message,
          ...(data === undefined ? {} : { data }),
          at: new Date().toISOString(),
        });
      else if (s.logs.length === MAX_LOG_LINES)
        s.logs.push({
          level: "warn",
          message: `log truncated after ${MAX_LOG_LINES} lines`,
          at: new Date().toISOString(),
        });
    },
    agentTurn(runId: string, nodeId: string, trace: unknown) {
      slot(runId, nodeId).agentTurns.push(trace);
    },
    take(runId: string, nodeId: string): StepExtrasData | undefined {
      const key = `${runId}\u0000${nodeId}`;
      const s = pending.get(key);
      pending.delete(key);
      return s && (s.logs.length || s.agentTurns.length) ? s : undefined;
    },
    /** Drops whatever a finished run left behind (steps that never checkpointed). */
    forgetRun(runId: string) {
      for (const key of pending.keys()) if (key.startsWith(`${runId}\u0000`)) pending.delete(key);
    },
  };
}

export type StepExtras = ReturnType<typeof createStepExtras>;
