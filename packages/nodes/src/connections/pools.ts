/**
 * The host's shared connections: one pool or client per key (node kind + credential + its settings),
 * opened on first use, kept while runs use it, closed after it sat unused for `idleMs`, and all closed
 * on shutdown. Keys carry a digest of the credential's fields, so an edited credential gets a new pool
 * and the old one idles out.
 */
import type { ConnectionPools, PooledResource } from "@switchyard/engine";

interface Entry {
  conn: Promise<unknown>;
  close(): Promise<void>;
  users: number;
  idle?: NodeJS.Timeout;
}

export interface HostConnectionPools extends ConnectionPools {
  /** Keys open right now (tests and health). */
  keys(): string[];
  /** Closes every connection; later `use` calls open new ones. */
  closeAll(): Promise<void>;
}

export function createConnectionPools(opts: { idleMs?: number } = {}): HostConnectionPools {
  const idleMs = opts.idleMs ?? 60_000;
  const entries = new Map<string, Entry>();

  function drop(key: string, entry: Entry): Promise<void> {
    if (entries.get(key) === entry) entries.delete(key);
    clearTimeout(entry.idle);
    // A close that fails leaves nothing to retry: the pool is gone from the map either way.
    return entry.close().catch(() => undefined);
  }

  function entryFor<T>(key: string, resource: PooledResource<T>): Entry {
    const existing = entries.get(key);
    if (existing) return existing;
    const conn = resource.open();
    const entry: Entry = {
      conn,
      users: 0,
      close: () => conn.then((c) => resource.close(c)),
    };
    entries.set(key, entry);
    // A failed open is not cached: the next use tries again.
    conn.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return entry;
  }

  return {
    async use<T, R>(key: string, resource: PooledResource<T>, fn: (conn: T) => Promise<R>): Promise<R> {
      const entry = entryFor(key, resource);
      clearTimeout(entry.idle);
      entry.users++;
      try {
        return await fn((await entry.conn) as T);
      } finally {
        entry.users--;
        if (entry.users === 0 && entries.get(key) === entry) {
          entry.idle = setTimeout(() => void drop(key, entry), idleMs);
          entry.idle.unref();
        }
      }
    },
    keys: () => [...entries.keys()],
    async closeAll() {
      await Promise.all([...entries].map(([key, entry]) => drop(key, entry)));
    },
  };
}
