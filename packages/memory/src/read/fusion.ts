export interface RankedList {
  seqs: number[];
  weight: number;
}

export interface Fused {
  seq: number;
  /** Fused score divided by the best possible one (first in every list): 0..1. */
  score: number;
  ranks: Array<number | undefined>;
}

/** Reciprocal rank fusion: Σ weight / (k + rank), rank starting at 1. */
export function reciprocalRankFusion(lists: RankedList[], k = 60): Fused[] {
  const scores = new Map<number, { score: number; ranks: Array<number | undefined> }>();
  lists.forEach((list, li) => {
    list.seqs.forEach((seq, i) => {
      let entry = scores.get(seq);
      if (!entry) {
        entry = { score: 0, ranks: lists.map(() => undefined) };
        scores.set(seq, entry);
      }
      entry.score += list.weight / (k + i + 1);
      entry.ranks[li] = i + 1;
    });
  });
  const best = lists.reduce((s, l) => s + l.weight / (k + 1), 0);
  return [...scores.entries()]
    .map(([seq, e]) => ({ seq, score: best > 0 ? e.score / best : 0, ranks: e.ranks }))
    .sort((a, b) => b.score - a.score || a.seq - b.seq);
}
