import { closeSync, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { createHammingKernel } from "./hamming-kernel";
import type { NeighbourIndex } from "./neighbour-index";

/** Bits per code: what the kernel compares (eight 64-bit words). */
export const SCAN_BITS = 512;
const CODE_BYTES = SCAN_BITS / 8;
// Layout of the kernel's memory: the query, the histogram (one counter per possible distance), then the codes
// from CODES on; a search's distances and result indexes go after the last code (scratch, rewritten each time).
const QUERY = 0;
const HIST = 64;
const CODES = 4096;
const PAGE = 65_536;
/** WebAssembly's 32-bit memories stop at 65 536 pages (4 GiB): ≈ 60 million codes with their scratch. */
const MAX_BYTES = 65_536 * PAGE;
const MAGIC = "SYBITS01";
const HEADER = 16; // magic, then bits and count as u32 LE

/**
 * Nearest neighbours by an exact scan of 512 sign bits per vector, in WebAssembly (hamming.wat): 64 bytes a
 * vector and nothing else, where usearch's HNSW graph over the same bits held ≈ 320 MB for 1 000 000 vectors
 * (links, levels, allocator). The scan reads every code: ≈ 4 ms for 1 000 000 on our machine kind, 0.5 ms for
 * 100 000 (docs/benchmarks.md), and it is exact in Hamming distance, where the graph missed some of the nearest.
 * Adds append, removes move the last code into the gap; the kernel's memory only grows (WebAssembly memory
 * cannot shrink), so a namespace that once held many vectors keeps their space until the process restarts.
 */
export function createBitScanIndex(): NeighbourIndex {
  const kernel = createHammingKernel();
  const { memory } = kernel;
  let count = 0;
  let keys = new Float64Array(1024);
  const slots = new Map<number, number>();

  const bytes = () => new Uint8Array(memory.buffer);
  const ensure = (end: number) => {
    const have = memory.buffer.byteLength;
    if (end <= have) return;
    if (end > MAX_BYTES)
      throw new RangeError(
        `a namespace's vector index is full: ${count} codes (WebAssembly memory stops at 4 GiB)`,
      );
    // Grown by half again each time, so appending one code at a time stays amortised O(1).
    memory.grow(Math.ceil((Math.min(MAX_BYTES, Math.max(end, have * 1.5)) - have) / PAGE));
  };
  const pack = (vectors: Int8Array, i: number, to: number) => {
    const mem = bytes();
    const from = i * SCAN_BITS;
    for (let b = 0; b < CODE_BYTES; b++) {
      let byte = 0;
      for (let j = 0; j < 8; j++) if (vectors[from + b * 8 + j]! > 0) byte |= 1 << j;
      mem[to + b] = byte;
    }
  };

  return {
    add(addKeys, vectors) {
      if (vectors.length !== addKeys.length * SCAN_BITS)
        throw new RangeError(`expected ${addKeys.length} vectors of ${SCAN_BITS} coordinates`);
      ensure(CODES + (count + addKeys.length) * CODE_BYTES);
      if (keys.length < count + addKeys.length) {
        const grown = new Float64Array(Math.max(count + addKeys.length, keys.length * 2));
        grown.set(keys.subarray(0, count));
        keys = grown;
      }
      for (let i = 0; i < addKeys.length; i++) {
        const key = Number(addKeys[i]);
        let slot = slots.get(key);
        if (slot === undefined) {
          slot = count++;
          keys[slot] = key;
          slots.set(key, slot);
        }
        pack(vectors, i, CODES + slot * CODE_BYTES);
      }
    },

    search(vector, k) {
      const n = count;
      const want = Math.min(k, n);
      if (want <= 0) return { keys: new BigUint64Array(0), distances: new Float32Array(0) };
      const out = CODES + n * CODE_BYTES;
      const res = out + Math.ceil(n / 2) * 4; // u16 distances, then u32 indexes (aligned)
      ensure(res + want * 4);
      pack(vector, 0, QUERY);
      // The memory does not grow again before the results are read, so these views stay valid.
      const hist = new Uint32Array(memory.buffer, HIST, SCAN_BITS + 1).fill(0);
      kernel.scan(QUERY, CODES, n, out, HIST);
      // The smallest distance `limit` with at least `want` codes at or under it; of those at it, the first
      // ones in slot order make up the count.
      let below = 0;
      let limit = 0;
      while (below + hist[limit]! < want) below += hist[limit++]!;
      const found = kernel.collect(out, n, limit, want - below, res);
      const distance = new Uint16Array(memory.buffer, out, n);
      const order = Array.from(new Uint32Array(memory.buffer, res, found)).sort(
        (a, b) => distance[a]! - distance[b]! || keys[a]! - keys[b]!,
      );
      return {
        keys: BigUint64Array.from(order, (slot) => BigInt(keys[slot]!)),
        distances: Float32Array.from(order, (slot) => distance[slot]!),
      };
    },

    remove(key) {
      const k = Number(key);
      const slot = slots.get(k);
      if (slot === undefined) return 0;
      const last = --count;
      slots.delete(k);
      if (slot !== last) {
        const mem = bytes();
        mem.copyWithin(CODES + slot * CODE_BYTES, CODES + last * CODE_BYTES, CODES + (last + 1) * CODE_BYTES);
        keys[slot] = keys[last]!;
        slots.set(keys[slot]!, slot);
      }
      return 1;
    },

    contains: (key) => slots.has(Number(key)),
    size: () => count,
    dimensions: () => SCAN_BITS,

    save(path) {
      const header = Buffer.alloc(HEADER);
      header.write(MAGIC, 0, "latin1");
      header.writeUInt32LE(SCAN_BITS, 8);
      header.writeUInt32LE(count, 12);
      const fd = openSync(path, "w");
      try {
        writeAll(fd, header);
        writeAll(fd, new Uint8Array(keys.buffer, 0, count * 8));
        writeAll(fd, new Uint8Array(memory.buffer, CODES, count * CODE_BYTES));
      } finally {
        closeSync(fd);
      }
    },

    load(path) {
      const fd = openSync(path, "r");
      try {
        const header = Buffer.alloc(HEADER);
        readAll(fd, header, 0);
        const n = header.readUInt32LE(12);
        const size = fstatSync(fd).size;
        if (header.toString("latin1", 0, 8) !== MAGIC || header.readUInt32LE(8) !== SCAN_BITS)
          throw new Error("not a bit-scan index file");
        if (size !== HEADER + n * (8 + CODE_BYTES))
          throw new Error(`size ${size} bytes, ${HEADER + n * (8 + CODE_BYTES)} expected for ${n} codes`);
        const loaded = new Float64Array(Math.max(1024, n));
        readAll(fd, new Uint8Array(loaded.buffer, 0, n * 8), HEADER);
        ensure(CODES + n * CODE_BYTES);
        // Straight into the kernel's memory: no second copy of the codes at any time.
        readAll(fd, new Uint8Array(memory.buffer, CODES, n * CODE_BYTES), HEADER + n * 8);
        slots.clear();
        for (let i = 0; i < n; i++) slots.set(loaded[i]!, i);
        keys = loaded;
        count = n;
      } finally {
        closeSync(fd);
      }
    },
  };
}

function writeAll(fd: number, data: Uint8Array) {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off);
}

function readAll(fd: number, into: Uint8Array, position: number) {
  for (let off = 0; off < into.length; ) {
    const got = readSync(fd, into, off, into.length - off, position + off);
    if (got === 0) throw new Error("file ended early");
    off += got;
  }
}
