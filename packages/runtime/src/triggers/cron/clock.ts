/** Time as the scheduler sees it; injectable so tests can drive virtual time without waiting. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's setTimeout overflows above 2^31-1 ms (~24.8 days); longer waits are re-armed in steps. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Wall time and global timers. Timers are unref'd: a schedule alone does not keep the process alive. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
