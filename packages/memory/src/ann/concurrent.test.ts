import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createHashingEmbedder } from "../embed/hashing";

describe("reading while an import runs", () => {
  it("answers every query during a long ingest and sees each committed batch", async () => {
    const m = tempMemory({ embedder: createHashingEmbedder() });
    const total = 3500; // four transactions of at most 1000; ingest yields to the event loop between them
    let ingestDone = false;
    const ingest = m.ingest
      .addMany(
        Array.from({ length: total }, (_, i) => ({
          key: `parcel ${i}`,
          content: `courier parcel tracking entry ${i}`,
          source: `t:${i}`,
        })),
      )
      .then((r) => {
        ingestDone = true;
        return r;
      });
    const seenCounts: number[] = [];
    let queriesDuringIngest = 0;
    while (!ingestDone) {
      const hits = await m.reader.search("courier parcel", {
        namespace: "global",
        mode: "balanced",
        limit: 5,
      });
      const semantic = await m.reader.search("courier parcel", {
        namespace: "global",
        mode: "semantic",
        limit: 5,
      });
      for (const h of [...hits, ...semantic])
        expect(h.item.content).toMatch(/^courier parcel tracking entry \d+$/);
      seenCounts.push(m.reader.list({ limit: 1 }).total);
      if (!ingestDone) queriesDuringIngest++;
      await new Promise((r) => setImmediate(r));
    }
    const report = await ingest;
    expect(report.added).toBe(total);
    expect(queriesDuringIngest).toBeGreaterThan(0);
    // Counts only grow: a reader never sees a half-applied batch disappear.
    expect(seenCounts).toEqual([...seenCounts].sort((a, b) => a - b));
    // After the import the last item is found by both indexes.
    const last = await m.reader.search("entry 3499", { namespace: "global", mode: "lexical", limit: 1 });
    expect(last[0]?.item.key).toBe("parcel 3499");
    const vec = await m.reader.search("courier parcel tracking entry 3499", {
      namespace: "global",
      mode: "semantic",
      limit: 3,
    });
    expect(vec.map((h) => h.item.key)).toContain("parcel 3499");
  });
});
