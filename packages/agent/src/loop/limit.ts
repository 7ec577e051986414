/** Bounds on how far one agent run may fan out (issue #18): documented in docs and the runner options. */

/** Tool calls of one model response that run at the same time; the rest wait for a free slot. */
export const DEFAULT_MAX_PARALLEL_TOOL_CALLS = 4;
/** Tool calls one model response may make; the excess is refused with an error the model sees. */
export const DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE = 16;
/** Delegated sub-agents running at once across one agent run's whole delegation tree. */
export const DEFAULT_MAX_CONCURRENT_SUBAGENTS = 4;

/** Shared by every turn of one agent run, so nested delegation counts against the same limit. */
export interface SubagentBudget {
  running: number;
  readonly limit: number;
}

/** `fn` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
