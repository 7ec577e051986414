import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import type { Embedder } from "../embed/embedder";
import { createHashingEmbedder } from "../embed/hashing";

const notes = Array.from({ length: 40 }, (_, i) => ({
  key: `Note ${i}`,
  content: `Stock ${i} of paper type ${i % 7}`,
}));

describe("changing the embedder", () => {
  it("marks every row pending, then re-embeds in batches with progress and records the embedder per row", async () => {
    const first = tempMemory();
    await first.ingest.addMany(notes);
    first.close();

    const next = tempMemory({ file: first.file, embedder: createHashingEmbedder({ dimensions: 128 }) });
    expect(next.pendingEmbeddings).toBe(40);
    expect(next.logs.join("\n")).toContain("vector index changed");
    // Until re-embedded, semantic search finds nothing but lexical still works.
    expect(await next.reader.search("paper", { namespace: "global", mode: "semantic" })).toEqual([]);
    expect((await next.reader.search("paper", { namespace: "global", mode: "lexical" })).length).toBe(10);

    const progress: Array<[number, number]> = [];
    expect(await next.ingest.reembed((d, t) => progress.push([d, t]), 16)).toBe(40);
    expect(progress).toEqual([
      [0, 40],
      [16, 40],
      [32, 40],
      [40, 40],
    ]);
    expect(next.reader.status()).toMatchObject({ embedderId: "hashing-v1@128", pendingEmbeddings: 0 });
    expect(next.reader.list({ limit: 100 }).items.every((i) => i.embedderId === "hashing-v1@128")).toBe(true);
    expect((await next.reader.search("paper type 3", { namespace: "global", mode: "semantic" })).length).toBe(
      10,
    );
  });

  it("keeps the vectors when the same embedder reopens the file", async () => {
    const first = tempMemory();
    await first.ingest.addMany(notes);
    first.close();
    const again = tempMemory({ file: first.file });
    expect(again.pendingEmbeddings).toBe(0);
    expect(again.logs).toEqual([]);
  });

  it("does not overwrite an item edited while its vector was being computed", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const base = createHashingEmbedder();
    let slow = false;
    const embedder: Embedder = {
      id: "gated",
      dimensions: base.dimensions,
      embed: async (texts) => {
        if (slow) await gate;
        return base.embed(texts);
      },
    };
    const first = tempMemory();
    const item = await first.ingest.add({ key: "K", content: "old text" });
    first.close();
    const m = tempMemory({ file: first.file, embedder });
    slow = true;
    const running = m.ingest.reembed();
    slow = false;
    await m.ingest.edit(item.id, { content: "new text" });
    release();
    // The edit embedded the row itself; the stale re-embed result is discarded.
    expect(await running).toBe(1);
    expect(m.reader.get(item.id)).toMatchObject({ content: "new text", embedderId: "gated" });
    // The stored vector is that of the new text (a stale write would score well below 1).
    const [hit] = await m.reader.search("K new text", { namespace: "global", mode: "semantic" });
    expect(hit?.score).toBeGreaterThan(0.999);
  });
});

describe("brute-force vector fallback", () => {
  it("ranks like sqlite-vec when forced", async () => {
    const docs = [
      { key: "Payroll", content: "Payroll runs in Gusto every other Friday." },
      { key: "Lease", content: "The shop lease ends in March 2027." },
      { key: "Paper", content: "Northline Paper delivers on Thursdays." },
      { key: "Other ns", content: "Payroll in another namespace.", namespace: "flow_x" },
    ];
    const vec = tempMemory({ vectorIndex: "exact" });
    const brute = tempMemory({ vectorBackend: "brute-force", vectorIndex: "exact" });
    expect(vec.vectorBackend).toBe("sqlite-vec");
    expect(brute.vectorBackend).toBe("brute-force");
    for (const m of [vec, brute]) await m.ingest.addMany(docs);
    const ranked = async (m: typeof vec) =>
      (await m.reader.search("payroll friday", { namespace: "global", mode: "semantic", limit: 3 })).map(
        (h) => [h.item.key, h.score.toFixed(4)],
      );
    expect(await ranked(brute)).toEqual(await ranked(vec));
    expect((await ranked(brute))[0]?.[0]).toBe("Payroll");
    const del = brute.reader.list({ namespace: "global" }).items.find((i) => i.key === "Payroll")!;
    brute.ingest.delete(del.id);
    expect((await ranked(brute)).map((r) => r[0])).not.toContain("Payroll");
  });

  it("switching backend on an existing file moves the vectors instead of re-embedding them", async () => {
    const first = tempMemory({ vectorIndex: "exact" });
    expect(first.vectorBackend).toBe("sqlite-vec");
    await first.ingest.addMany(notes.slice(0, 5));
    first.close();
    const brute = tempMemory({ file: first.file, vectorBackend: "brute-force" });
    expect(brute.pendingEmbeddings).toBe(0);
    expect(brute.logs).toContain(
      "memory: 5 vectors moved from sqlite-vec to brute-force storage (same embedder)",
    );
    expect((await brute.reader.search("paper", { namespace: "global", mode: "semantic" })).length).toBe(5);
  });
});
