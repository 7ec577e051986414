/**
 * A fixed, data-independent projection to a few dimensions (subsampled randomised Hadamard transform:
 * seeded sign flips, a fast Walsh–Hadamard transform, then the first `target` coordinates). It keeps
 * cosines approximately (Johnson–Lindenstrauss) at O(d log d) per vector, so the ANN index stays small
 * (1 000 000 items × 64 bytes of sign bits, see bit-scan.ts) while exact vectors in SQLite re-rank what it finds. Being seeded, it
 * never needs fitting or storing, and the same vector always lands on the same point.
 */
export interface Projection {
  readonly inputDimensions: number;
  readonly dimensions: number;
  /** Projected, unit-length and quantised to int8 (components scaled so ±4σ fills the range). */
  project(v: Float32Array): Int8Array;
}

export function createProjection(inputDimensions: number, target: number, seed = 0x5eed1): Projection {
  let padded = 1;
  while (padded < inputDimensions) padded *= 2;
  // Never fewer coordinates than the input when the input is small: then the transform is exact (orthogonal).
  const dimensions = Math.min(target, padded);
  const signs = new Float32Array(padded);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < padded; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    signs[i] = s & 1 ? 1 : -1;
  }
  // A unit vector's components have σ = 1/√d; ±4σ → ±127 loses almost nothing to clipping.
  const scale = 127 / (4 / Math.sqrt(dimensions));
  const work = new Float32Array(padded);
  return {
    inputDimensions,
    dimensions,
    project(v) {
      work.fill(0);
      for (let i = 0; i < Math.min(v.length, inputDimensions); i++) work[i] = v[i]! * signs[i]!;
      for (let h = 1; h < padded; h *= 2) {
        for (let i = 0; i < padded; i += h * 2) {
          for (let j = i; j < i + h; j++) {
            const a = work[j]!;
            const b = work[j + h]!;
            work[j] = a + b;
            work[j + h] = a - b;
          }
        }
      }
      let sq = 0;
      for (let i = 0; i < dimensions; i++) sq += work[i]! * work[i]!;
      const k = sq > 0 ? scale / Math.sqrt(sq) : 0;
      const out = new Int8Array(dimensions);
      for (let i = 0; i < dimensions; i++) out[i] = Math.max(-127, Math.min(127, Math.round(work[i]! * k)));
      return out;
    },
  };
}
