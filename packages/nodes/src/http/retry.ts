/** Statuses a later attempt may plausibly succeed on. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Delay before the next attempt: Retry-After (seconds or HTTP date) when given, else
 * exponential backoff from 500 ms; always capped at `maxDelayMs`.
 */
export function retryDelayMs(
  attempt: number,
  retryAfter: string | undefined,
  maxDelayMs: number,
  now: Date,
): number {
  let ms = 500 * 2 ** attempt;
  if (retryAfter !== undefined) {
    const trimmed = retryAfter.trim();
    if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
    else {
      const at = Date.parse(trimmed);
      if (!Number.isNaN(at)) ms = Math.max(0, at - now.getTime());
    }
  }
  return Math.min(ms, maxDelayMs);
}
