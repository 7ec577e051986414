import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createDefaultEmbedder } from "../embed/default";
import type { AnnIndex } from "./ann-index";
import { createAnnVectorSearch, EXACT_HEAD, jsRerank, sqlRerank } from "./ann-search";

describe("the exact re-rank of ANN candidates", () => {
  it("gives the same cosines inside SQLite (sqlite-vec) as in JavaScript, and keeps to the namespace", async () => {
    const embedder = createDefaultEmbedder();
    const m = tempMemory({ embedder });
    await m.ingest.addMany(
      Array.from({ length: 60 }, (_, i) => ({
        key: `note ${i}`,
        content: `${["invoice reminder", "laminator pouches", "payroll friday"][i % 3]} for customer ${i}`,
        namespace: i % 4 === 0 ? "flow_a" : "global",
      })),
    );
    const db = new Database(m.file, { readonly: true });
    try {
      const seqs = db.prepare("SELECT seq FROM items_vec_blob ORDER BY seq").pluck().all() as number[];
      const [query] = await embedder.embed(["when is the invoice reminder sent"]);
      const inSql = sqlRerank(db, () => {});
      expect(inSql).not.toBeNull();
      const bySeq = (xs: Array<{ seq: number; similarity: number }>) => [...xs].sort((a, b) => a.seq - b.seq);
      const a = bySeq(inSql!(query!, "global", seqs, seqs.length));
      const b = bySeq(jsRerank(db, "brute-force")(query!, "global", seqs, seqs.length));
      expect(a.map((x) => x.seq)).toEqual(b.map((x) => x.seq));
      expect(a).toHaveLength(45);
      a.forEach((x, i) => {
        // sqlite-vec sums in float32, JavaScript in float64.
        expect(x.similarity).toBeCloseTo(b[i]!.similarity, 5);
      });
      expect(Math.max(...a.map((x) => x.similarity))).toBeGreaterThan(0.5);

      // Keeping 5: the int8 copy picks them (among equal cosines, any), with the same exact cosines as above.
      const sims = (xs: Array<{ similarity: number }>) => xs.map((x) => x.similarity).sort((x, y) => y - x);
      const kept = inSql!(query!, "global", seqs, 5);
      expect(kept).toHaveLength(5);
      sims(kept).forEach((s, i) => {
        expect(s).toBeCloseTo(sims(a)[i]!, 6);
      });
      // Keeping 30: the first EXACT_HEAD read exactly, the rest keep their int8 cosine (within rounding).
      const exactOf = new Map(a.map((x) => [x.seq, x.similarity]));
      const kept30 = inSql!(query!, "global", seqs, 30);
      expect(kept30).toHaveLength(30);
      const gaps = kept30.map((x) => Math.abs(x.similarity - exactOf.get(x.seq)!));
      expect(Math.max(...gaps)).toBeLessThan(0.005);
      expect(gaps.filter((g) => g < 1e-6).length).toBeGreaterThanOrEqual(EXACT_HEAD);
    } finally {
      db.close();
    }
  });

  it("reads the better half of a full candidate list, and every candidate of a graph that had fewer than asked for", async () => {
    const embedder = createDefaultEmbedder();
    const m = tempMemory({ embedder });
    await m.ingest.addMany(
      Array.from({ length: 40 }, (_, i) => ({
        key: `note ${i}`,
        content: i === 0 ? "invoice reminder for the customer" : `laminator pouches, shelf ${i}`,
      })),
    );
    const db = new Database(m.file, { readonly: true });
    try {
      const seqs = db.prepare("SELECT seq FROM items_vec_blob ORDER BY seq").pluck().all() as number[];
      const best = db.prepare("SELECT seq FROM items WHERE key = 'note 0'").pluck().get() as number;
      // A graph that ranked the true nearest 30th of 32: the re-rank of the better half (16) never sees it.
      const order = [
        ...seqs.filter((s) => s !== best).slice(0, 29),
        best,
        ...seqs.filter((s) => s !== best).slice(29, 31),
      ];
      const graph = (returned: number): AnnIndex => ({
        catchUp: () => {},
        search: (_q, _ns, k) => order.slice(0, Math.min(k, returned)),
        persist: () => {},
        size: () => returned,
      });
      const [query] = await embedder.embed(["when is the invoice reminder sent"]);
      const top = (returned: number, wanted: number) =>
        createAnnVectorSearch(db, "brute-force", graph(returned), () => wanted)(query!, "global", 1)[0]!.seq;
      expect(order).toHaveLength(32);
      expect(top(32, 32)).not.toBe(best);
      // All 32 the graph held, of 40 asked for: all re-ranked, and the nearest found.
      expect(top(32, 40)).toBe(best);
      // ... each by its exact cosine, deeper than the int8 step's exact head too: an exact scan's answer.
      const twenty = createAnnVectorSearch(db, "brute-force", graph(32), () => 40)(query!, "global", 20);
      const all = jsRerank(db, "brute-force")(query!, "global", order, order.length);
      const scan = [...all].sort((a, b) => b.similarity - a.similarity || a.seq - b.seq).slice(0, 20);
      // (sqlite-vec sums in float32, so equal cosines may tie-break apart: compare the cosines, in order.)
      const exactOf = new Map(all.map((x) => [x.seq, x.similarity]));
      twenty.forEach((x, i) => {
        expect(x.similarity).toBeCloseTo(scan[i]!.similarity, 5);
        expect(x.similarity).toBeCloseTo(exactOf.get(x.seq) ?? Number.NaN, 5);
      });
    } finally {
      db.close();
    }
  });
});
