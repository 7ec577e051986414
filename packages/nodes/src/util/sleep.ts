import { NodeError } from "../errors";

/** Waits `ms`, or rejects with `cancelled` as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new NodeError("cancelled", "cancelled while waiting"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new NodeError("cancelled", "cancelled while waiting"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
