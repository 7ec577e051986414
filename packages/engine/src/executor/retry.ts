import type { RetryPolicy } from "@switchyard/contracts/flow";

/**
 * Delay before retry number `attempt + 1`, after `attempt` failed attempts (attempt >= 1).
 * Exponential doubles from `delayMs`; `maxDelayMs` caps the base delay; jitter adds up to
 * `jitter * delay` using the caller's random number so the function stays pure.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, rand: number): number {
  const base =
    policy.backoff === "exponential" ? policy.delayMs * 2 ** Math.min(attempt - 1, 40) : policy.delayMs;
  const capped = policy.maxDelayMs === undefined ? base : Math.min(base, policy.maxDelayMs);
  const spread = policy.jitter === true ? 0.5 : typeof policy.jitter === "number" ? policy.jitter : 0;
  return Math.round(capped + capped * spread * Math.min(Math.max(rand, 0), 1));
}
