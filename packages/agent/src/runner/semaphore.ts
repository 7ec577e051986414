/** Process-wide limit on concurrently running agent steps (spec §2, default 8). */
export class Semaphore {
  #active = 0;
  readonly #waiters: {
    resolve: () => void;
    reject: (e: unknown) => void;
    signal?: AbortSignal;
    onAbort: () => void;
  }[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  }

  get active(): number {
    return this.#active;
  }
  get queued(): number {
    return this.#waiters.length;
  }

  /** Waits for a slot; rejects with the signal's reason if aborted while queued. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#active < this.limit) {
      this.#active++;
      return this.#releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.#waiters.indexOf(waiter);
          if (i >= 0) this.#waiters.splice(i, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#waiters.push(waiter);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (next) {
        // Hand the slot straight to the next waiter; the active count stays the same.
        next.signal?.removeEventListener("abort", next.onAbort);
        next.resolve();
      } else {
        this.#active--;
      }
    };
  }
}
