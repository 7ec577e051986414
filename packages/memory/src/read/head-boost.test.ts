import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";

// Both notes contain every query word, so the whole-text re-ranking alone cannot tell them apart.
const notes = [
  { key: "Misc notes", content: "Refund approvals, then label stock, then the courier." },
  { key: "Refund approvals", content: "Dev signs off anything above 200 dollars." },
];

const scores = async (headBoost: number) => {
  const m = tempMemory({ headBoost });
  await m.ingest.addMany(notes);
  const hits = await m.reader.search("refund approvals", { namespace: "global", mode: "semantic", limit: 2 });
  return hits.map((h) => [h.item.key, h.score] as const);
};

describe("field boost in the word-by-word re-ranking", () => {
  it("scores two notes that both contain the query alike without it", async () => {
    const [a, b] = await scores(0);
    expect(a![1]).toBe(1);
    expect(b![1]).toBe(1);
  });

  it("puts the note whose title answers the query first with it", async () => {
    const [a, b] = await scores(0.3);
    expect(a![0]).toBe("Refund approvals");
    expect(a![1]).toBe(1);
    expect(b![1]).toBeLessThan(1);
  });
});
