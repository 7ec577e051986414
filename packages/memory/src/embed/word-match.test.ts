import { describe, expect, it } from "vitest";
import { createBlendedEmbedder } from "./blend";
import { createHashingEmbedder } from "./hashing";
import { createWordMatcher } from "./word-match";
import { loadWordVectors } from "./word-vector-asset";
import { createWordVectorEmbedder } from "./word-vectors";

const match = createWordMatcher(() => loadWordVectors());

describe("word-by-word relevance", () => {
  it("gives 1 to a text holding every query word in some form, far more than to an unrelated text", () => {
    const [hit, miss] = match("invoices reminder", [
      "Invoice reminders go out after 14 days",
      "Laminator pouches are in the cupboard",
    ]);
    expect(hit).toBe(1);
    expect(miss).toBeLessThan(0.3);
  });

  it("counts a partial word the text word starts with as a match", () => {
    expect(match("laminat", ["Laminator pouches are in the cupboard"])).toEqual([1]);
    // Too short to be a reliable fragment: "lam" must match as a whole word.
    expect(match("lam", ["Laminator pouches"])[0]).toBeLessThan(1);
  });

  it("ranks a paraphrase first among texts that share no word with the query", () => {
    const texts = [
      "Payroll runs on the last day of each month.",
      "The shop opens at nine on weekdays.",
      "Our newsletter goes out through Mailchimp.",
    ];
    const scores = match("hours the store is open", texts);
    expect(scores.indexOf(Math.max(...scores))).toBe(1);
  });

  it("weighs query words by the weights it is given (the store passes IDF)", () => {
    const plain = match("supplier refund", ["our supplier"])[0]!;
    const rareSupplier = match("supplier refund", ["our supplier"], (w) => (w === "supplier" ? 3 : 1))[0]!;
    expect(rareSupplier).toBeGreaterThan(plain);
    expect(rareSupplier).toBeCloseTo((3 + (plain * 2 - 1)) / 4, 10);
  });

  it("ignores word similarities below the floor", () => {
    expect(match("money back", ["refund"])[0]).toBeGreaterThan(0.2);
    expect(
      createWordMatcher(() => loadWordVectors(), { minSimilarity: 0.9 })("money back", ["refund"]),
    ).toEqual([0]);
  });

  it("matches words outside the vocabulary only by their own form or a close spelling", () => {
    expect(match("zzqx", ["zzqx invoice", "invoice"])).toEqual([1, 0]);
    const [typo, other] = match("mailchmp", ["sent through Mailchimp", "sent by post"]);
    expect(typo).toBeGreaterThanOrEqual(0.5);
    expect(other).toBe(0);
  });

  it("is offered by the word-vector embedder and by a blend containing it, not by hashing alone", async () => {
    const words = createWordVectorEmbedder();
    const blend = createBlendedEmbedder([
      { embedder: words, weight: 0.5 },
      { embedder: createHashingEmbedder(), weight: 0.5 },
    ]);
    expect(createHashingEmbedder().relevance).toBeUndefined();
    const texts = ["The shop opens at nine", "Payroll runs monthly"];
    const idf = () => 1;
    expect(await blend.relevance!("store hours", texts, idf)).toEqual(
      await words.relevance!("store hours", texts, idf),
    );
  });
});
