import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The word-vector table from `assets/word-vectors.bin` (format: scripts/build-word-vectors.ts). */
export interface WordVectors {
  readonly count: number;
  readonly dims: number;
  /** Word → row; rows are in corpus-frequency order (row 0 is the most frequent word). */
  readonly index: ReadonlyMap<string, number>;
  /** Row-major int8 values, `count * dims`; value = vectors[row * dims + d] * scales[row]. */
  readonly vectors: Int8Array;
  readonly scales: Float32Array;
}

const MAGIC = "SYWVEC01";
const HEADER_BYTES = 24;

/** Where the committed asset lives, resolved lazily so bundlers that copy modules don't evaluate it early. */
export function defaultWordVectorsPath(): string {
  return fileURLToPath(new URL("../../assets/word-vectors.bin", import.meta.url));
}

/** Parses the asset. One read: the vectors stay a view on the file's buffer (no copy). */
export function parseWordVectors(file: Buffer): WordVectors {
  if (file.length < HEADER_BYTES || file.toString("latin1", 0, 8) !== MAGIC) {
    throw new Error("word-vectors.bin: not a Switchyard word-vector file (bad magic)");
  }
  const count = file.readUInt32LE(8);
  const dims = file.readUInt32LE(12);
  const vocabBytes = file.readUInt32LE(16);
  const scalesAt = HEADER_BYTES + Math.ceil(vocabBytes / 4) * 4;
  const vectorsAt = scalesAt + count * 4;
  if (file.length !== vectorsAt + count * dims) {
    throw new Error(`word-vectors.bin: expected ${vectorsAt + count * dims} bytes, found ${file.length}`);
  }
  const words = file.toString("utf8", HEADER_BYTES, HEADER_BYTES + vocabBytes).split("\n");
  if (words.length !== count) throw new Error(`word-vectors.bin: ${words.length} words for ${count} vectors`);
  const index = new Map<string, number>();
  for (let i = 0; i < words.length; i++) index.set(words[i]!, i);
  // Copy the small scale block so it is 4-byte aligned whatever the buffer's offset.
  const scales = new Float32Array(count);
  for (let i = 0; i < count; i++) scales[i] = file.readFloatLE(scalesAt + i * 4);
  const vectors = new Int8Array(file.buffer, file.byteOffset + vectorsAt, count * dims);
  return { count, dims, index, vectors, scales };
}

const cache = new Map<string, WordVectors>();
let loads = 0;

/** Loads (once per path, then cached for the process) and parses the asset. */
export function loadWordVectors(path: string = defaultWordVectorsPath()): WordVectors {
  let table = cache.get(path);
  if (!table) {
    table = parseWordVectors(readFileSync(path));
    loads++;
    cache.set(path, table);
  }
  return table;
}

/** How many times an asset file has been read in this process (for the lazy-loading test). */
export function wordVectorLoads(): number {
  return loads;
}
