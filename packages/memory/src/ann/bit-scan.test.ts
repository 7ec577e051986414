import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../__tests__/temp-memory";
import { createBitScanIndex, SCAN_BITS } from "./bit-scan";

// Seeded so a failure repeats.
function randomVectors(n: number, seed: number): Int8Array {
  const out = new Int8Array(n * SCAN_BITS);
  let s = seed;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = ((s >>> 16) % 255) - 127;
  }
  return out;
}

/** The k nearest keys by a plain scan: Hamming distance over the signs, ties by key. */
function reference(vectors: Int8Array, keys: number[], query: Int8Array, k: number) {
  return keys
    .map((key, i) => {
      let d = 0;
      for (let j = 0; j < SCAN_BITS; j++) if (vectors[i * SCAN_BITS + j]! > 0 !== query[j]! > 0) d++;
      return { key, d };
    })
    .sort((a, b) => a.d - b.d || a.key - b.key)
    .slice(0, k);
}

const keysOf = (keys: number[]) => BigUint64Array.from(keys, BigInt);
const found = (r: { keys: BigUint64Array; distances: Float32Array }) =>
  Array.from(r.keys, (key, i) => ({ key: Number(key), d: r.distances[i]! }));

describe("the bit-scan index", () => {
  it("returns the k nearest codes in Hamming distance, as a scan in JavaScript does, ties by key", () => {
    const n = 3000;
    const vectors = randomVectors(n, 7);
    const keys = Array.from({ length: n }, (_, i) => 10 * i + 3);
    const index = createBitScanIndex();
    // Two batches, so the second add grows the kernel's memory.
    index.add(keysOf(keys.slice(0, 1000)), vectors.subarray(0, 1000 * SCAN_BITS));
    index.add(keysOf(keys.slice(1000)), vectors.subarray(1000 * SCAN_BITS));
    expect(index.size()).toBe(n);
    const queries = randomVectors(5, 99);
    for (let q = 0; q < 5; q++) {
      const query = queries.subarray(q * SCAN_BITS, (q + 1) * SCAN_BITS);
      for (const k of [1, 37, 400])
        expect(found(index.search(query, k, 1))).toEqual(reference(vectors, keys, query, k));
    }
    // Its own code is at distance 0.
    expect(found(index.search(vectors.subarray(0, SCAN_BITS), 1, 1))).toEqual([{ key: 3, d: 0 }]);
  });

  it("returns every code when asked for more than it holds, and nothing when empty", () => {
    const index = createBitScanIndex();
    expect(found(index.search(randomVectors(1, 1), 5, 1))).toEqual([]);
    const vectors = randomVectors(3, 2);
    index.add(keysOf([1, 2, 3]), vectors);
    expect(
      found(index.search(vectors.subarray(0, SCAN_BITS), 10, 1))
        .map((f) => f.key)
        .sort(),
    ).toEqual([1, 2, 3]);
  });

  it("replaces a key's code on a second add and fills a removed code's place with the last one", () => {
    const vectors = randomVectors(6, 3);
    const at = (i: number) => vectors.subarray(i * SCAN_BITS, (i + 1) * SCAN_BITS);
    const index = createBitScanIndex();
    index.add(keysOf([1, 2, 3, 4, 5]), vectors.subarray(0, 5 * SCAN_BITS));
    index.add(keysOf([2]), at(5));
    expect(index.size()).toBe(5);
    expect(found(index.search(at(5), 1, 1))).toEqual([{ key: 2, d: 0 }]);
    expect(index.remove(2n)).toBe(1);
    expect(index.remove(2n)).toBe(0);
    expect(index.contains(2n)).toBe(false);
    expect(index.size()).toBe(4);
    // Key 5 moved into key 2's place: still found by its own code, and so is everyone else.
    for (const [key, i] of [
      [1, 0],
      [3, 2],
      [4, 3],
      [5, 4],
    ] as const)
      expect(found(index.search(at(i), 1, 1))).toEqual([{ key, d: 0 }]);
    expect(found(index.search(at(5), 4, 1)).map((f) => f.key)).not.toContain(2);
  });

  it("loads what it saved, and refuses a torn or foreign file", () => {
    const dir = tempDir();
    const vectors = randomVectors(500, 4);
    const keys = Array.from({ length: 500 }, (_, i) => i + 1);
    const index = createBitScanIndex();
    index.add(keysOf(keys), vectors);
    index.remove(7n);
    const file = join(dir, "a.index");
    index.save(file);
    const loaded = createBitScanIndex();
    loaded.load(file);
    expect(loaded.size()).toBe(499);
    expect(loaded.contains(7n)).toBe(false);
    const query = randomVectors(1, 5);
    expect(found(loaded.search(query, 50, 1))).toEqual(found(index.search(query, 50, 1)));

    truncateSync(file, 5000);
    expect(() => createBitScanIndex().load(file)).toThrow("size 5000 bytes, 35944 expected for 499 codes");
    writeFileSync(file, Buffer.alloc(64));
    expect(() => createBitScanIndex().load(file)).toThrow("not a bit-scan index file");
  });
});
