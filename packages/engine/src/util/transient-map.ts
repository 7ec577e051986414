/**
 * A string-keyed map for entries that live about as long as one request or run, kept by something that
 * lives as long as the process (in-flight registries, buffers waiting for a commit, response slots).
 *
 * Why not a Map or a Set there: V8 keeps their entries in a hash table that it replaces as entries come
 * and go, and a replaced table that had reached the old generation still points at the values it held,
 * so young values it once held can survive minor GCs and be promoted. On the webhook hot path (W2,
 * `node --trace-gc-nvp`, three A/B pairs) the runtime's registries as Maps and Sets promoted 1.02–1.06 KB
 * per request, as TransientMaps 0.75–0.88 KB. An object without a prototype (dictionary mode) holds its
 * entries without that tail.
 */
export class TransientMap<V> {
  #entries: Record<string, V> = Object.create(null);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  get(key: string): V | undefined {
    return this.#entries[key];
  }

  has(key: string): boolean {
    return key in this.#entries;
  }

  set(key: string, value: V): this {
    if (!(key in this.#entries)) this.#size++;
    this.#entries[key] = value;
    return this;
  }

  delete(key: string): boolean {
    if (!(key in this.#entries)) return false;
    delete this.#entries[key];
    this.#size--;
    return true;
  }

  /** Snapshots: changing the map while walking one is safe. */
  keys(): string[] {
    return Object.keys(this.#entries);
  }

  values(): V[] {
    return Object.values(this.#entries);
  }

  entries(): [string, V][] {
    return Object.entries(this.#entries);
  }
}

/**
 * The promises of work in flight (for a drain at shutdown), in a TransientMap for the reason above: a Set
 * of them promoted every request's promise and everything its reactions held.
 */
export class InFlight {
  #promises = new TransientMap<Promise<unknown>>();
  #next = 0;

  get size(): number {
    return this.#promises.size;
  }

  /** Tracks `p` until it settles; returns it. */
  track<T>(p: Promise<T>): Promise<T> {
    const key = `p${this.#next++}`;
    this.#promises.set(key, p);
    void p.finally(() => this.#promises.delete(key)).catch(() => {});
    return p;
  }

  /** Resolves when everything tracked so far has settled, and what those started meanwhile. */
  async settled(): Promise<void> {
    while (this.#promises.size > 0) await Promise.allSettled(this.#promises.values());
  }
}
