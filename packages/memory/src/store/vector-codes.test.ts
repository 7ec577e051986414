import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { sqlRerank } from "../ann/ann-search";
import { createDefaultEmbedder } from "../embed/default";
import { quantizeInt8 } from "./vector-codes";

type Row = { seq: number; namespace: string; v: Buffer };

/** Both tables side by side: the int8 copy must hold exactly the float table's rows, each quantised. */
function tables(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const floats = db
      .prepare("SELECT seq, namespace, embedding AS v FROM items_vec_blob ORDER BY seq")
      .all() as Row[];
    const codes = db.prepare("SELECT seq, namespace, q AS v FROM items_vec_q8 ORDER BY seq").all() as Row[];
    return { floats, codes };
  } finally {
    db.close();
  }
}

/** Whether opening the store logged that it wrote the codes of `n` vectors stored without one. */
const wroteCodes = (logs: string[], n: number) =>
  logs.some((l) =>
    new RegExp(
      `^memory: wrote the int8 code of ${n} vector${n === 1 ? "" : "s"} stored without one in \\d+ ms$`,
    ).test(l),
  );

function expectInStep(file: string) {
  const { floats, codes } = tables(file);
  expect(codes.map((c) => [c.seq, c.namespace])).toEqual(floats.map((f) => [f.seq, f.namespace]));
  codes.forEach((c, i) => {
    const f = floats[i]!.v;
    const expected = quantizeInt8(
      new Float32Array(f.buffer.slice(f.byteOffset, f.byteOffset + f.byteLength)),
    );
    expect(new Int8Array(c.v.buffer, c.v.byteOffset, c.v.byteLength)).toEqual(expected);
  });
  return floats.length;
}

const notes = Array.from({ length: 12 }, (_, i) => ({
  key: `note ${i}`,
  content: `${["invoice reminder", "laminator pouches", "payroll friday"][i % 3]} for customer ${i}`,
}));

describe("the int8 copy of the stored vectors", () => {
  it("scales each vector so its largest coordinate is ±127", () => {
    expect(Array.from(quantizeInt8(new Float32Array([0.5, -0.2, 0.001, 0])))).toEqual([127, -51, 0, 0]);
    expect(Array.from(quantizeInt8(new Float32Array([0, 0])))).toEqual([0, 0]);
  });

  it("follows inserts, edits, moves between namespaces and deletes", async () => {
    const m = tempMemory({ vectorBackend: "brute-force" });
    const items = await Promise.all(notes.map((n) => m.ingest.add(n)));
    expect(expectInStep(m.file)).toBe(12);
    await m.ingest.edit(items[0]!.id, { content: "a completely different text about gardening" });
    await m.ingest.edit(items[1]!.id, { namespace: "flow_a" });
    m.ingest.delete(items[2]!.id);
    expect(expectInStep(m.file)).toBe(11);
    expect(tables(m.file).codes.find((c) => c.namespace === "flow_a")).toBeDefined();
  });

  it("is built on opening a store that has none, and when the vectors move from sqlite-vec", async () => {
    const first = tempMemory({ vectorBackend: "brute-force" });
    await first.ingest.addMany(notes);
    first.close();
    const raw = new Database(first.file);
    raw.exec("DROP TABLE items_vec_q8");
    raw.close();
    const reopened = tempMemory({ file: first.file, vectorBackend: "brute-force" });
    expect(wroteCodes(reopened.logs, 12)).toBe(true);
    expect(expectInStep(first.file)).toBe(12);

    const vec = tempMemory({ vectorIndex: "exact" });
    expect(vec.vectorBackend).toBe("sqlite-vec");
    await vec.ingest.addMany(notes.slice(0, 5));
    vec.close();
    tempMemory({ file: vec.file, vectorBackend: "brute-force" });
    expect(expectInStep(vec.file)).toBe(5);
  });

  it("loses a row's code when another writer changes or deletes its vector; the re-rank reads that row exactly and the next start writes its code", async () => {
    const m = tempMemory({ vectorBackend: "brute-force" });
    await m.ingest.addMany(notes);
    const raw = new Database(m.file);
    const seqOf = (key: string) =>
      raw.prepare("SELECT seq FROM items WHERE key = ?").pluck().get(key) as number;
    const [target, source, gone] = [seqOf("note 0"), seqOf("note 1"), seqOf("note 2")];
    // What a writer that keeps no codes (an older version of this package) does: only the float table changes.
    raw
      .prepare(
        "UPDATE items_vec_blob SET embedding = (SELECT embedding FROM items_vec_blob WHERE seq = ?) WHERE seq = ?",
      )
      .run(source, target);
    raw.prepare("DELETE FROM items_vec_blob WHERE seq = ?").run(gone);
    const coded = raw.prepare("SELECT seq FROM items_vec_q8").pluck().all() as number[];
    const candidates = raw.prepare("SELECT seq FROM items_vec_blob").pluck().all() as number[];
    raw.close();
    expect(coded).not.toContain(target);
    expect(coded).not.toContain(gone);
    expect(coded).toHaveLength(10);

    const db = new Database(m.file, { readonly: true });
    try {
      const [query] = await createDefaultEmbedder().embed([notes[1]!.content]);
      const found = sqlRerank(db, () => {})!(query!, "global", candidates, 1);
      // Keeping 1: the best coded row (the source itself), plus the uncoded row, whose vector is now the same.
      expect(found.map((r) => r.seq).sort((a, b) => a - b)).toEqual([target, source].sort((a, b) => a - b));
      expect(found[0]!.similarity).toBeCloseTo(found[1]!.similarity, 6);
    } finally {
      db.close();
    }
    // The next start writes the missing code, from the vector as it is now.
    const reopened = tempMemory({ file: m.file, vectorBackend: "brute-force" });
    expect(wroteCodes(reopened.logs, 1)).toBe(true);
    expect(expectInStep(m.file)).toBe(11);
  });
});
