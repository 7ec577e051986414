import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, tempMemory } from "../__tests__/temp-memory";
import { createHashingEmbedder } from "../embed/hashing";
import { openStore } from "../store/database";
import { createItemStore } from "../store/item-store";
import { createAnnIndex } from "./ann-index";

const notes = [
  { key: "Payroll", content: "Payroll runs in Gusto every other Friday." },
  { key: "Lease", content: "The shop lease ends in March 2027." },
  { key: "Paper", content: "Northline Paper delivers on Thursdays." },
  { key: "Laminator", content: "The laminator needs ten minutes to warm up." },
];

const semanticKeys = async (m: ReturnType<typeof tempMemory>, query: string, namespace = "global") =>
  (await m.reader.search(query, { namespace, mode: "semantic", limit: 10 })).map((h) => h.item.key);

/** A store with the index wired by hand, so the test can look at the index itself. */
function storeWithIndex() {
  const embedder = createHashingEmbedder();
  const file = join(tempDir(), "memory.db");
  const conn = openStore({ file, embedder, vectorBackend: "brute-force", log: () => {} });
  const ann = createAnnIndex({
    dir: `${file}.ann`,
    backend: conn.backend,
    dimensions: embedder.dimensions,
    hnsw: null,
    log: () => {},
  })!;
  const store = createItemStore(
    conn.writer,
    conn.backend,
    embedder,
    () => {},
    () => ann.catchUp(conn.writer),
  );
  const close = () => {
    conn.reader.close();
    conn.writer.close();
  };
  return { conn, ann, store, embedder, close };
}

describe("ANN vector index", () => {
  it("is the default and finds what exact search finds on a small store", async () => {
    const ann = tempMemory();
    const exact = tempMemory({ vectorIndex: "exact" });
    expect(ann.vectorIndex).toBe("ann");
    expect(exact.vectorIndex).toBe("exact");
    for (const m of [ann, exact]) await m.ingest.addMany(notes);
    const scored = async (m: typeof ann) =>
      (await m.reader.search("friday payroll", { namespace: "global", mode: "semantic", limit: 4 })).map(
        (h) => [h.item.key, h.score.toFixed(4)],
      );
    expect(await scored(ann)).toEqual(await scored(exact));
  });

  it("keeps in step with add, edit, namespace moves and delete", async () => {
    const { conn, ann, store, embedder, close } = storeWithIndex();
    try {
      const input = (key: string, content: string, namespace = "global") => ({
        key,
        content,
        namespace,
        kind: "memory" as const,
        tags: [],
      });
      const report = await store.upsertMany(notes.map((n) => input(n.key, n.content)));
      expect(ann.size()).toBe(4);
      const [payroll, lease] = report.ids as [string, string];
      const seqOf = (id: string) =>
        conn.writer.prepare("SELECT seq FROM items WHERE id = ?").pluck().get(id) as number;
      const nearest = async (text: string, namespace = "global") =>
        ann.search((await embedder.embed([text]))[0]!, namespace, 1);

      expect(await nearest("Payroll runs in Gusto every other Friday.")).toEqual([seqOf(payroll)]);
      await store.updateItem(payroll, { content: "Staff get paid through Gusto on Fridays." });
      expect(await nearest("Staff get paid through Gusto on Fridays.")).toEqual([seqOf(payroll)]);
      expect(ann.size()).toBe(4);

      await store.updateItem(lease, { namespace: "flow_a" });
      expect(await nearest("The shop lease ends in March 2027.", "flow_a")).toEqual([seqOf(lease)]);
      expect(await nearest("The shop lease ends in March 2027.")).not.toContain(seqOf(lease));
      expect(ann.size()).toBe(4);

      store.deleteItem(payroll);
      expect(ann.size()).toBe(3);
      expect(await nearest("Staff get paid through Gusto on Fridays.")).not.toContain(seqOf(payroll));
    } finally {
      close();
    }
  });

  it("picks up writes another connection committed (another process, say)", async () => {
    const a = tempMemory();
    const b = tempMemory({ file: a.file });
    await a.ingest.addMany(notes.slice(0, 2));
    await b.ingest.add({ key: "Insurance", content: "Hiscox renews the shop insurance in May." });
    expect(await semanticKeys(a, "insurance renewal")).toContain("Insurance");
    b.ingest.delete(a.reader.list({}).items.find((i) => i.key === "Payroll")!.id);
    expect(await semanticKeys(a, "payroll")).not.toContain("Payroll");
  });

  it("loads its snapshot on restart instead of rebuilding", async () => {
    const first = tempMemory({ embedder: createHashingEmbedder() });
    await first.ingest.addMany(notes);
    first.close();
    expect(existsSync(join(`${first.file}.ann`, "manifest.json"))).toBe(true);
    const again = tempMemory({ file: first.file, embedder: createHashingEmbedder() });
    expect(again.logs.filter((l) => l.includes("vector index"))).toEqual([]);
    expect((await semanticKeys(again, "laminator warm up"))[0]).toBe("Laminator");
  });

  it("rebuilds from the stored vectors when the snapshot is missing", async () => {
    const first = tempMemory({ embedder: createHashingEmbedder() });
    await first.ingest.addMany(notes);
    first.close();
    rmSync(`${first.file}.ann`, { recursive: true });
    const again = tempMemory({ file: first.file, embedder: createHashingEmbedder() });
    expect(again.logs.some((l) => /^memory: built the vector index from 4 stored vectors/.test(l))).toBe(
      true,
    );
    expect((await semanticKeys(again, "laminator warm up"))[0]).toBe("Laminator");
  });

  it("loses nothing when the process dies between the database commit and the snapshot", async () => {
    const first = tempMemory({ embedder: createHashingEmbedder() });
    await first.ingest.addMany(notes);
    first.close();
    const second = tempMemory({ file: first.file, embedder: createHashingEmbedder() });
    await second.ingest.add({ key: "Insurance", content: "Hiscox renews the shop insurance in May." });
    second.ingest.delete(second.reader.list({}).items.find((i) => i.key === "Payroll")!.id);
    // A copy taken now is what a crash leaves: the commits are in the database (and its WAL), the
    // snapshot on disk still has the four first notes and nothing of the two changes.
    const crashed = join(tempDir(), "memory.db");
    for (const suffix of ["", "-wal", ".ann"])
      cpSync(`${first.file}${suffix}`, `${crashed}${suffix}`, { recursive: true });
    const after = tempMemory({ file: crashed, embedder: createHashingEmbedder() });
    expect(after.logs.filter((l) => l.includes("vector index"))).toEqual([]);
    expect(await semanticKeys(after, "insurance renewal")).toContain("Insurance");
    expect(await semanticKeys(after, "payroll friday gusto")).not.toContain("Payroll");
    expect(after.reader.status().items).toBe(4);
  });

  it("rebuilds when a snapshot file is torn (a crash or a full disk while it was written)", async () => {
    const first = tempMemory({ embedder: createHashingEmbedder() });
    await first.ingest.addMany(notes);
    first.close();
    const dir = `${first.file}.ann`;
    const graph = readdirSync(dir).find((f) => f.endsWith(".index"))!;
    const bytes = readFileSync(join(dir, graph));
    writeFileSync(join(dir, graph), bytes.subarray(0, Math.floor(bytes.length / 3)));
    const again = tempMemory({ file: first.file, embedder: createHashingEmbedder() });
    expect(
      again.logs.some((l) => /^memory: vector index snapshot unusable \(.+\); rebuilding it/.test(l)),
    ).toBe(true);
    expect(again.logs.some((l) => /^memory: built the vector index from 4 stored vectors/.test(l))).toBe(
      true,
    );
    expect((await semanticKeys(again, "laminator warm up"))[0]).toBe("Laminator");
  });

  it("rebuilds when the snapshot belongs to another copy of the database", async () => {
    const a = tempMemory({ embedder: createHashingEmbedder() });
    await a.ingest.addMany(notes);
    a.close();
    const b = tempMemory({ embedder: createHashingEmbedder() });
    await b.ingest.addMany(notes.slice(0, 1));
    b.close();
    // b's snapshot next to a's database: a different epoch, so it must not be trusted.
    rmSync(`${a.file}.ann`, { recursive: true });
    cpSync(`${b.file}.ann`, `${a.file}.ann`, { recursive: true });
    const again = tempMemory({ file: a.file, embedder: createHashingEmbedder() });
    expect(again.logs).toContain("memory: vector index snapshot is stale; rebuilding it from the database");
    expect(await semanticKeys(again, "laminator warm up")).toContain("Laminator");
  });

  it("stores sign bits for an embedder of 257 dimensions or more and int8 coordinates below, both exact after re-ranking", async () => {
    const signatureOf = (file: string) =>
      JSON.parse(readFileSync(join(`${file}.ann`, "manifest.json"), "utf8")).signature as string;
    for (const [dimensions, graph] of [
      [384, "srht512of384|b1ham"],
      [64, "srht64of64|i8ip"],
    ] as const) {
      const ann = tempMemory({ embedder: createHashingEmbedder({ dimensions }) });
      const exact = tempMemory({ embedder: createHashingEmbedder({ dimensions }), vectorIndex: "exact" });
      for (const m of [ann, exact]) await m.ingest.addMany(notes);
      const scored = async (m: typeof ann) =>
        (
          await m.reader.search("paper delivery thursday", {
            namespace: "global",
            mode: "semantic",
            limit: 4,
          })
        ).map((h) => [h.item.key, h.score.toFixed(4)]);
      expect(await scored(ann)).toEqual(await scored(exact));
      ann.close();
      expect(signatureOf(ann.file)).toContain(graph);
    }
  });

  it("rebuilds a snapshot made with other settings (a usearch graph from before the bit scan)", async () => {
    const first = tempMemory({ embedder: createHashingEmbedder() });
    await first.ingest.addMany(notes);
    first.close();
    const manifest = join(`${first.file}.ann`, "manifest.json");
    const m = JSON.parse(readFileSync(manifest, "utf8"));
    writeFileSync(manifest, JSON.stringify({ ...m, signature: m.signature.replace("bitscan1", "usearch2") }));
    const again = tempMemory({ file: first.file, embedder: createHashingEmbedder() });
    expect(again.logs).toContain(
      "memory: vector index snapshot unusable (made with other settings); rebuilding it from the database",
    );
    expect((await semanticKeys(again, "laminator warm up"))[0]).toBe("Laminator");
  });
});
