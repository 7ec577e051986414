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

/**
 * Weighted reciprocal rank fusion: Σ weight / (k + rank), rank starting at 1. Equal scores keep the
 * order in which the lists first rank them, so pass the most trusted list first: an item only one
 * list found ties with one at the same rank in another list, and the first list wins that tie.
 */
export function reciprocalRankFusion(lists: RankedList[], k = 60): Fused[] {
  const scores = new Map<number, { score: number; order: number; ranks: Array<number | undefined> }>();
  lists.forEach((list, li) => {
    list.seqs.forEach((seq, i) => {
      let entry = scores.get(seq);
      if (!entry) {
        entry = { score: 0, order: scores.size, ranks: lists.map(() => undefined) };
        scores.set(seq, entry);
      }
      entry.score += list.weight / (k + i + 1);
      entry.ranks[li] = i + 1;
    });
  });
  const best = lists.reduce((s, l) => s + l.weight / (k + 1), 0);
  return [...scores.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.order - b.order)
    .map(([seq, e]) => ({ seq, score: best > 0 ? e.score / best : 0, ranks: e.ranks }));
}
