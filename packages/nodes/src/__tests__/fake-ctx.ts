import type { ExpressionEvaluator, NodeContext } from "@switchyard/engine";

export interface LogLine {
  level: "info" | "warn" | "error";
  message: string;
  data?: unknown;
}

/** A plain NodeContext for tests; capabilities are absent unless passed in. */
export function fakeCtx(overrides: Partial<NodeContext> = {}): NodeContext & { logs: LogLine[] } {
  const logs: LogLine[] = [];
  const expressions: ExpressionEvaluator = {
    evaluate: async () => {
      throw new Error("no expression evaluator in this test");
    },
  };
  return {
    nodeId: "n1",
    run: { id: "run-1", flowId: "flow-1", startedAt: "2024-01-01T00:00:00.000Z", channel: "manual" },
    log: {
      info: (message, data) => logs.push({ level: "info", message, data }),
      warn: (message, data) => logs.push({ level: "warn", message, data }),
      error: (message, data) => logs.push({ level: "error", message, data }),
    },
    signal: new AbortController().signal,
    now: () => new Date("2024-01-01T00:00:00.000Z"),
    expressions,
    logs,
    ...overrides,
  };
}

/** Wraps plain objects as items. */
export function items(...json: Record<string, unknown>[]) {
  return json.map((j) => ({ json: j }));
}
