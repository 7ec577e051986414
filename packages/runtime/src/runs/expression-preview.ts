import { capChars } from "@switchyard/contracts/cap";
import { createExpressionEvaluator, resolveConfig } from "@switchyard/engine";
import type { ExpressionSample } from "./expression-sample";

/** Characters of a previewed value sent to the browser; the rest is cut with a marker. */
export const PREVIEW_MAX_CHARS = 2000;

export type ExpressionPreview =
  | { ok: true; value: string; truncated: boolean }
  | { ok: false; message: string };

/**
 * Evaluates one config value (`=expr` or a `{{ }}` template) the way a run does: the engine's resolver
 * and evaluator with the same limits, over the sample scope. The browser never evaluates anything.
 */
export function createExpressionPreview() {
  // One evaluator, like the executor's: default limits, a cache of compiled expressions.
  const evaluator = createExpressionEvaluator();
  return async (
    value: string,
    sample: ExpressionSample,
    at: { flowId: string; nodeId: string; field: string },
  ): Promise<ExpressionPreview> => {
    const scope = {
      ...sample.scope,
      run: {
        id: "preview",
        flowId: at.flowId,
        startedAt: new Date().toISOString(),
        channel: "manual" as const,
      },
    };
    try {
      // Keyed by the field's path, so an error names the field exactly as a run's error would.
      const out = (await resolveConfig({ [at.field]: value }, scope, {
        evaluator,
        nodeId: at.nodeId,
      })) as Record<string, unknown>;
      const result = out[at.field];
      const text = result === undefined ? "undefined" : (JSON.stringify(result, null, 2) ?? "undefined");
      const capped = capChars(text, PREVIEW_MAX_CHARS);
      return { ok: true, value: capped.text, truncated: capped.truncated };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  };
}
