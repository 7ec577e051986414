import { describe, expect, it } from "vitest";
import { reciprocalRankFusion } from "./fusion";

describe("reciprocal rank fusion", () => {
  it("puts an item both lists rank above items only one list ranks", () => {
    const fused = reciprocalRankFusion([
      { seqs: [1, 2, 3], weight: 1 },
      { seqs: [4, 5, 3], weight: 1 },
    ]);
    expect(fused[0]!.seq).toBe(3);
    expect(fused[0]!.ranks).toEqual([3, 3]);
  });

  it("scores an item first in every list 1 and records each list's rank", () => {
    const fused = reciprocalRankFusion([
      { seqs: [7, 8], weight: 2 },
      { seqs: [7], weight: 1 },
    ]);
    expect(fused[0]).toEqual({ seq: 7, score: 1, ranks: [1, 1] });
    expect(fused[1]!.ranks).toEqual([2, undefined]);
    expect(fused[1]!.score).toBeCloseTo(2 / 62 / (2 / 61 + 1 / 61), 10);
  });

  it("breaks equal scores in favour of the list given first, whatever the item ids", () => {
    const lexicalFirst = reciprocalRankFusion([
      { seqs: [9], weight: 1 },
      { seqs: [2], weight: 1 },
    ]);
    expect(lexicalFirst.map((f) => f.seq)).toEqual([9, 2]);
    const semanticFirst = reciprocalRankFusion([
      { seqs: [2], weight: 1 },
      { seqs: [9], weight: 1 },
    ]);
    expect(semanticFirst.map((f) => f.seq)).toEqual([2, 9]);
  });

  it("lets a heavier list win where equal weights would tie", () => {
    const lists = (w: number) => [
      { seqs: [1, 2], weight: 1 },
      { seqs: [2, 1], weight: w },
    ];
    expect(reciprocalRankFusion(lists(1))[0]!.score).toBeCloseTo(
      reciprocalRankFusion(lists(1))[1]!.score,
      12,
    );
    expect(reciprocalRankFusion(lists(1.5)).map((f) => f.seq)).toEqual([2, 1]);
  });

  it("a smaller k lets the top of each list count for more against items further down", () => {
    // Item 1: first in list A only. Item 2: fourth in both lists.
    const lists = [
      { seqs: [1, 10, 11, 2], weight: 1 },
      { seqs: [20, 21, 22, 2], weight: 1 },
    ];
    expect(reciprocalRankFusion(lists, 60)[0]!.seq).toBe(2);
    expect(reciprocalRankFusion(lists, 1)[0]!.seq).toBe(1);
  });
});
