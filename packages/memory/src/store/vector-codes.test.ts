import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
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
    expect(reopened.logs.some((l) => /^memory: built the int8 copy of 12 vectors in \d+ ms$/.test(l))).toBe(
      true,
    );
    expect(expectInStep(first.file)).toBe(12);

    const vec = tempMemory({ vectorIndex: "exact" });
    expect(vec.vectorBackend).toBe("sqlite-vec");
    await vec.ingest.addMany(notes.slice(0, 5));
    vec.close();
    tempMemory({ file: vec.file, vectorBackend: "brute-force" });
    expect(expectInStep(vec.file)).toBe(5);
  });
});
