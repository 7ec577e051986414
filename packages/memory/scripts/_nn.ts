import { loadWordVectors } from "../src/embed/word-vector-asset";
const t = loadWordVectors();
const unit = new Float32Array(t.count * t.dims);
for (let r = 0; r < t.count; r++) {
  let sq = 0;
  for (let d = 0; d < t.dims; d++) {
    const x = t.vectors[r * t.dims + d]!;
    sq += x * x;
  }
  const inv = 1 / Math.sqrt(sq || 1);
  for (let d = 0; d < t.dims; d++) unit[r * t.dims + d] = t.vectors[r * t.dims + d]! * inv;
}
const words = [...t.index.keys()];
for (const w of process.argv.slice(2)) {
  const r = t.index.get(w);
  if (r === undefined) {
    console.log(w, "OOV");
    continue;
  }
  const s: [number, string][] = [];
  for (let o = 0; o < Math.min(t.count, 30000); o++) {
    let d = 0;
    for (let k = 0; k < t.dims; k++) d += unit[r * t.dims + k]! * unit[o * t.dims + k]!;
    s.push([d, words[o]!]);
  }
  s.sort((a, b) => b[0] - a[0]);
  console.log(
    w,
    s
      .slice(1, 13)
      .map(([d, x]) => `${x}:${d.toFixed(2)}`)
      .join(" "),
  );
}
