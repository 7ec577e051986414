import { describe, expect, it } from "vitest";
import { tempMemory } from "../__tests__/temp-memory";
import { createDefaultEmbedder } from "./default";
import { createQueryExpander } from "./expansion";
import { createWordMatcher } from "./word-match";
import { loadWordVectors } from "./word-vector-asset";

const expand = createQueryExpander(() => loadWordVectors());

describe("query expansion from the word vectors", () => {
  it("brings related words for each query word, never the query's own words or their forms", () => {
    const words = expand("pictures of taxes").map((x) => x.word);
    expect(words).toEqual(expect.arrayContaining(["photographs", "photos"]));
    expect(words).not.toContain("pictures");
    expect(words).not.toContain("picture"); // same stem as a query word: the index matches it already
    expect(words).not.toContain("of");
    for (const x of expand("pictures")) {
      expect(x.from).toBe("pictures");
      expect(x.similarity).toBeGreaterThanOrEqual(0.6);
    }
  });

  it("gives nothing for words outside the vocabulary", () => {
    expect(expand("zzqxv")).toEqual([]);
  });

  it("lets balanced search find an item by a related word when its weight is above 0", async () => {
    const notes = [
      { key: "Instagram", content: "Photographs of finished work go on Instagram on Tuesdays." },
      { key: "Lease", content: "The shop lease ends in March 2027." },
    ];
    const withExpansion = tempMemory({ fusion: { expansionWeight: 0.5 } });
    const without = tempMemory();
    for (const m of [withExpansion, without]) await m.ingest.addMany(notes);
    const lexicalOnly = await without.reader.search("pictures", { namespace: "global", mode: "lexical" });
    expect(lexicalOnly).toEqual([]);
    const hits = await withExpansion.reader.search("pictures", { namespace: "global", mode: "balanced" });
    expect(hits[0]?.item.key).toBe("Instagram");
  });

  it("is offered by the default embedder", async () => {
    const embedder = createDefaultEmbedder();
    expect((await embedder.expand!("pictures")).map((x) => x.word)).toContain("photographs");
  });
});

describe("contrast in the word-by-word relevance", () => {
  const contrast = createWordMatcher(() => loadWordVectors(), { contrast: true });
  const texts = [
    "Okay: refunds above 200 dollars need a second approver.",
    "Okay: the laminator needs ten minutes to warm up.",
    "Okay: Northline Paper delivers on Thursdays.",
    "Okay: the shop lease ends in March.",
  ];

  it("scores within 0..1 and puts the text that stands out for the query first", () => {
    const scores = contrast("refund", texts);
    expect(scores[0]).toBe(Math.max(...scores));
    for (const s of scores) {
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThan(1);
    }
  });

  it("lets a word every candidate matches equally change nothing in the order", () => {
    const order = (scores: number[]) =>
      scores
        .map((s, i) => [s, i] as const)
        .sort((a, b) => b[0] - a[0])
        .map(([, i]) => i);
    expect(order(contrast("okay refund", texts))).toEqual(order(contrast("refund", texts)));
    // The word still counts in the weights, so a text's score moves toward the middle, never past another's.
    const withOkay = contrast("okay refund", texts);
    const alone = contrast("refund", texts);
    expect(Math.abs(withOkay[0]! - 0.5)).toBeLessThan(Math.abs(alone[0]! - 0.5));
  });

  it("falls back to the plain mean for fewer than three texts", () => {
    const plain = createWordMatcher(() => loadWordVectors());
    expect(contrast("refund", texts.slice(0, 2))).toEqual(plain("refund", texts.slice(0, 2)));
  });
});
