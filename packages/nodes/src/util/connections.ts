import type { ConnectionLease, SharedConnections } from "@switchyard/engine";

interface Entry {
  opening: Promise<unknown>;
  refs: number;
  timer?: ReturnType<typeof setTimeout>;
  close(): Promise<void>;
}

/** How long an unused connection stays open when its opener gives no `idleMs`. */
export const DEFAULT_IDLE_MS = 60_000;

/**
 * The host's shared connections (see SharedConnections): one per key, reference-counted, closed after
 * being idle or when the host closes. A connection that failed to open is not kept, so the next run
 * tries again instead of inheriting the failure. `idleMs` overrides every opener's own (tests).
 */
export function createSharedConnections(opts: { idleMs?: number } = {}): SharedConnections & {
  /** Keys with a connection open or opening (tests, health). */
  keys(): string[];
  closeAll(): Promise<void>;
} {
  const entries = new Map<string, Entry>();
  let closed = false;

  const drop = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    clearTimeout(entry.timer);
    void entry.close();
  };

  return {
    async acquire<T>(
      key: string,
      spec: {
        open(lost: () => void): Promise<T>;
        close(connection: T): Promise<void> | void;
        idleMs?: number;
      },
    ): Promise<ConnectionLease<T>> {
      if (closed) throw new Error("the host is shutting down: no new connections");
      let entry = entries.get(key);
      if (!entry) {
        let onceClosed = false;
        const created: Entry = {
          refs: 0,
          opening: undefined as unknown as Promise<unknown>,
          close: async () => {
            if (onceClosed) return;
            onceClosed = true;
            const c = await created.opening.catch(() => undefined);
            if (c !== undefined) await Promise.resolve(spec.close(c as T)).catch(() => {});
          },
        };
        created.opening = spec.open(() => drop(key, created));
        entry = created;
        entries.set(key, entry);
        created.opening.catch(() => {
          if (entries.get(key) === created) entries.delete(key);
        });
      }
      const e = entry;
      e.refs += 1;
      clearTimeout(e.timer);
      e.timer = undefined;
      let connection: T;
      try {
        connection = (await e.opening) as T;
      } catch (err) {
        e.refs -= 1;
        throw err;
      }
      let done = false;
      return {
        connection,
        release() {
          if (done) return;
          done = true;
          e.refs -= 1;
          if (e.refs > 0 || entries.get(key) !== e) return;
          e.timer = setTimeout(() => drop(key, e), opts.idleMs ?? spec.idleMs ?? DEFAULT_IDLE_MS);
          // An idle connection must not keep the process alive on its own.
          e.timer.unref?.();
        },
        discard() {
          if (done) return;
          done = true;
          e.refs -= 1;
          drop(key, e);
        },
      };
    },
    keys: () => [...entries.keys()],
    async closeAll() {
      closed = true;
      const all = [...entries.values()];
      entries.clear();
      await Promise.all(
        all.map((e) => {
          clearTimeout(e.timer);
          return e.close();
        }),
      );
    },
  };
}
