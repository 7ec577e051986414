import { z } from "zod";
import { type Embedder, l2normalize } from "./embedder";

export interface OpenAiEmbedderOptions {
  /** Base URL including the version prefix, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Length of the vectors the model returns (checked on every response). */
  dimensions: number;
  /** Texts per request. */
  batchSize?: number;
  timeoutMs?: number;
  /** Send `dimensions` in the request (OpenAI text-embedding-3 models can shorten vectors). */
  requestDimensions?: boolean;
  fetch?: typeof fetch;
}

const responseShape = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

// Long inputs are cut so one oversized note doesn't fail a whole batch with a context-length error.
const MAX_INPUT_CHARS = 8000;

/** Embedder for any server that speaks OpenAI's `POST /v1/embeddings`. */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const base = options.baseUrl.replace(/\/+$/, "");
  const batchSize = options.batchSize ?? 64;
  const doFetch = options.fetch ?? fetch;

  const request = async (input: string[]): Promise<Float32Array[]> => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    const body: Record<string, unknown> = { model: options.model, input, encoding_format: "float" };
    if (options.requestDimensions) body.dimensions = options.dimensions;
    const res = await doFetch(`${base}/embeddings`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`embeddings request failed: HTTP ${res.status}: ${text.slice(0, 200)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error("embeddings response is not JSON");
    }
    const parsed = responseShape.safeParse(json);
    if (!parsed.success) throw new Error("embeddings response has no data[].embedding");
    const out: Float32Array[] = new Array(input.length);
    for (const row of parsed.data.data) {
      if (row.index >= input.length) throw new Error(`embeddings response index ${row.index} out of range`);
      if (row.embedding.length !== options.dimensions) {
        throw new Error(`embeddings have ${row.embedding.length} dimensions, expected ${options.dimensions}`);
      }
      out[row.index] = l2normalize(Float32Array.from(row.embedding));
    }
    for (let i = 0; i < input.length; i++)
      if (!out[i]) throw new Error(`embeddings response is missing index ${i}`);
    return out;
  };

  return {
    id: `openai:${options.model}@${options.dimensions}`,
    dimensions: options.dimensions,
    embed: async (texts) => {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts
          .slice(i, i + batchSize)
          .map((t) => (t.trim() === "" ? " " : t.slice(0, MAX_INPUT_CHARS)));
        out.push(...(await request(batch)));
      }
      return out;
    },
  };
}
