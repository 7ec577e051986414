import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openMemory } from "/work/wt-memory/packages/memory/src/index";
const N = Number(process.argv[2] ?? 40000);
let seed = 0x9e3779b9;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
};
const VOCAB =
  "invoice payment customer order quote supplier paper delivery printer stock refund reminder payroll lease insurance backup shipping label banner poster flyer menu wedding invitation proof approval deadline friday monday thursday wholesale retail discount price increase contract meeting call email webhook flow cron schedule report summary digest account bank reconcile tax accountant holiday closure staff intern training safety cutter laminator ink cartridge colour profile coated uncoated courier pickup shelf notification sms".split(
    " ",
  );
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const sentence = (n: number) => Array.from({ length: n }, () => pick(VOCAB)).join(" ");
const dir = mkdtempSync(join(tmpdir(), "mem-annexp-"));
const file = join(dir, "m.db");
const m0 = openMemory({ file, log: () => {} });
for (let s = 0; s < N; s += 10000)
  await m0.ingest.addMany(
    Array.from({ length: 10000 }, (_, i) => ({
      key: `${sentence(3)} ${s + i}`,
      content: `${sentence(12 + Math.floor(rand() * 30))}.`,
      source: `b:${s + i}`,
    })),
  );
m0.close();
const exact = openMemory({
  file,
  log: () => {},
  recallMinScore: -1,
  vectorIndex: "exact",
  vectorBackend: "brute-force",
});
const queries = Array.from({ length: 60 }, () => sentence(1 + Math.floor(rand() * 4)));
const truth: Set<string>[] = [];
for (const q of queries)
  truth.push(new Set((await exact.reader.recall(q, { limit: 10 })).map((h) => h.item.id)));
exact.close();
for (const [name, f] of [
  ["min(20k+200,1000)", (k: number) => Math.min(k * 20 + 200, Math.max(1000, k))],
  ["8k+100", (k: number) => k * 8 + 100],
] as const) {
  const ann = openMemory({ file, log: () => {}, recallMinScore: -1, annCandidates: f });
  let found = 0,
    wanted = 0;
  for (let i = 0; i < queries.length; i++) {
    const got = await ann.reader.recall(queries[i]!, { limit: 10 });
    found += got.filter((h) => truth[i]!.has(h.item.id)).length;
    wanted += truth[i]!.size;
  }
  console.log(N, name, (found / wanted).toFixed(3), `load ${loadavg()[0]!.toFixed(1)}`);
  ann.close();
}
rmSync(dir, { recursive: true, force: true });
