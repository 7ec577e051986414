/**
 * A step's abort signal, created only when something looks at it. Most nodes (set, if, respond…) never
 * do, and an AbortController per step was a measurable share of a small run's cost. Aborting before
 * the signal exists is remembered, so a late reader still gets an aborted signal with the reason.
 */
export class StepAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
