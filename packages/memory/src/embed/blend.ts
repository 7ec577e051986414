import { type Embedder, l2normalize } from "./embedder";

export interface BlendPart {
  embedder: Embedder;
  /** Share of the cosine similarity this part contributes (weights need not sum to 1). */
  weight: number;
}

/**
 * Concatenates unit vectors from several embedders, each scaled by √weight, and re-normalises: the
 * cosine of two blended vectors is the weighted mean of the parts' cosines (when no part is empty).
 * A text one part cannot see (e.g. only unknown words) is carried by the other parts alone.
 */
export function createBlendedEmbedder(parts: BlendPart[]): Embedder {
  if (parts.length === 0) throw new RangeError("a blend needs at least one part");
  for (const p of parts) if (!(p.weight > 0)) throw new RangeError(`weight of ${p.embedder.id} must be > 0`);
  const dimensions = parts.reduce((s, p) => s + p.embedder.dimensions, 0);
  const scales = parts.map((p) => Math.sqrt(p.weight));
  const judges = parts.filter((p) => p.embedder.relevance !== undefined);
  const judgeWeight = judges.reduce((s, p) => s + p.weight, 0);
  // Expansion is a list of words, not a score: the first part that offers it answers.
  const expander = parts.find((p) => p.embedder.expand !== undefined)?.embedder;

  const concat = (vectors: Float32Array[]): Float32Array => {
    const out = new Float32Array(dimensions);
    let o = 0;
    vectors.forEach((v, i) => {
      const s = scales[i]!;
      for (let d = 0; d < v.length; d++) out[o + d] = v[d]! * s;
      o += parts[i]!.embedder.dimensions;
    });
    return l2normalize(out);
  };

  return {
    id: `blend(${parts.map((p) => `${p.embedder.id}*${p.weight}`).join("+")})@${dimensions}`,
    dimensions,
    async embed(texts) {
      const perPart = await Promise.all(parts.map((p) => p.embedder.embed(texts)));
      return texts.map((_, t) => concat(perPart.map((vs) => vs[t]!)));
    },
    async embedQuery(text, wordWeight) {
      const vs = await Promise.all(
        parts.map(async (p) =>
          p.embedder.embedQuery
            ? p.embedder.embedQuery(text, wordWeight)
            : (await p.embedder.embed([text]))[0]!,
        ),
      );
      return concat(vs);
    },
    ...(expander && { expand: (query: string) => expander.expand!(query) }),
    // Parts that can judge relevance word by word do so; their scores are averaged by weight.
    ...(judges.length > 0 && {
      async relevance(query, texts, wordWeight) {
        const perPart = await Promise.all(judges.map((p) => p.embedder.relevance!(query, texts, wordWeight)));
        return texts.map(
          (_, t) => perPart.reduce((s, scores, j) => s + scores[t]! * judges[j]!.weight, 0) / judgeWeight,
        );
      },
    }),
  };
}
