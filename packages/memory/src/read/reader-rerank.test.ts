import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createHashingEmbedder } from "../embed/hashing";

const notes = [
  { key: "Payroll", content: "Staff wages are transferred on the 15th and on the last day of the month." },
  { key: "Backups", content: "The office computer is backed up nightly to an external drive in the safe." },
  { key: "Newsletter", content: "The monthly newsletter goes out through Mailchimp on the first Monday." },
  { key: "Opening hours", content: "Doors open at nine on weekdays and at ten on Saturdays." },
];

describe("balanced and semantic search with the default embedder", () => {
  it("finds a paraphrase that shares no word with the note, where lexical search finds nothing", async () => {
    const m = tempMemory();
    await m.ingest.addMany(notes.map((n) => ({ kind: "memory" as const, ...n })));
    const query = "when do employees receive their salary";
    expect(await m.reader.search(query, { namespace: "global", mode: "lexical" })).toEqual([]);
    for (const mode of ["balanced", "semantic"] as const) {
      const hits = await m.reader.search(query, { namespace: "global", mode, limit: 2 });
      expect(hits[0]!.item.key).toBe("Payroll");
      expect(hits[0]!.semanticRank).toBe(1);
      expect(hits).toHaveLength(2);
    }
  });

  it("keeps an exact lexical match first and reports both ranks for it", async () => {
    const m = tempMemory();
    await m.ingest.addMany(notes.map((n) => ({ kind: "memory" as const, ...n })));
    const [first] = await m.reader.search("Mailchimp newsletter", { namespace: "global" });
    expect(first!.item.key).toBe("Newsletter");
    expect([first!.lexicalRank, first!.semanticRank, first!.score]).toEqual([1, 1, 1]);
  });

  it("scores semantic hits 0..1 by word-by-word relevance, best first", async () => {
    const m = tempMemory();
    await m.ingest.addMany(notes.map((n) => ({ kind: "memory" as const, ...n })));
    const hits = await m.reader.search("newsletter Mailchimp", { namespace: "global", mode: "semantic" });
    expect(hits[0]!.score).toBe(1);
    for (let i = 1; i < hits.length; i++) {
      expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
      expect(hits[i]!.score).toBeGreaterThan(0);
    }
  });

  it("still finds a note from a misspelt query (spelling closeness, hashed character n-grams)", async () => {
    const m = tempMemory();
    await m.ingest.addMany(notes.map((n) => ({ kind: "memory" as const, ...n })));
    for (const mode of ["semantic", "balanced"] as const) {
      const hits = await m.reader.search("newsleter mailchmp", { namespace: "global", mode });
      expect(hits[0]!.item.key).toBe("Newsletter");
    }
  });

  it("keeps vector order when the embedder cannot judge relevance word by word", async () => {
    const m = tempMemory({ embedder: createHashingEmbedder() });
    await m.ingest.addMany(notes.map((n) => ({ kind: "memory" as const, ...n })));
    const hits = await m.reader.search("monthly newsletter", { namespace: "global", mode: "semantic" });
    expect(hits[0]!.item.key).toBe("Newsletter");
    // Cosines of hashed features, not relevance scores: below 1 even for the best hit.
    expect(hits[0]!.score).toBeLessThan(1);
  });
});
