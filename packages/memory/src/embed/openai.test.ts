import { afterEach, describe, expect, it } from "vitest";
import { startEmbeddingsServer } from "../__tests__/embeddings-server";
import { tempMemory } from "../__tests__/temp-memory";
import { createOpenAiEmbedder } from "./openai";

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});
async function server(options: Parameters<typeof startEmbeddingsServer>[0] = {}) {
  const s = await startEmbeddingsServer(options);
  servers.push(s);
  return s;
}

describe("OpenAI-compatible embedder", () => {
  it("posts model and inputs to <baseUrl>/embeddings with the bearer key and orders rows by index", async () => {
    const s = await server();
    const e = createOpenAiEmbedder({
      baseUrl: `${s.baseUrl}/`,
      apiKey: "sk-test",
      model: "m1",
      dimensions: 64,
      batchSize: 2,
    });
    const out = await e.embed(["alpha", "beta", "gamma"]);
    expect(e.id).toBe("openai:m1@64");
    expect(out).toHaveLength(3);
    expect(s.requests.map((r) => [r.url, r.body.model, r.body.input])).toEqual([
      ["/v1/embeddings", "m1", ["alpha", "beta"]],
      ["/v1/embeddings", "m1", ["gamma"]],
    ]);
    expect(s.requests[0]!.headers.authorization).toBe("Bearer sk-test");
    const [again] = await e.embed(["beta"]);
    expect([...again!]).toEqual([...out[1]!]);
  });

  it("reports HTTP errors and malformed or wrong-sized responses", async () => {
    const s = await server({
      reply: (r) =>
        r.body.input[0] === "500"
          ? { status: 500, body: '{"error":"boom"}' }
          : r.body.input[0] === "junk"
            ? { status: 200, body: "not json" }
            : r.body.input[0] === "short"
              ? { status: 200, body: JSON.stringify({ data: [{ index: 0, embedding: [1, 2] }] }) }
              : undefined,
    });
    const e = createOpenAiEmbedder({ baseUrl: s.baseUrl, model: "m", dimensions: 64 });
    await expect(e.embed(["500"])).rejects.toThrow('embeddings request failed: HTTP 500: {"error":"boom"}');
    await expect(e.embed(["junk"])).rejects.toThrow("embeddings response is not JSON");
    await expect(e.embed(["short"])).rejects.toThrow("embeddings have 2 dimensions, expected 64");
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("backs semantic search in the store", async () => {
    const s = await server();
    const m = tempMemory({
      embedder: createOpenAiEmbedder({ baseUrl: s.baseUrl, model: "m", dimensions: 64 }),
    });
    await m.ingest.add({ key: "Payroll", content: "Payroll runs in Gusto every other Friday." });
    await m.ingest.add({ key: "Lease", content: "The shop lease ends in 2027." });
    const hits = await m.reader.recall("when does payroll run");
    expect(hits[0]?.item.key).toBe("Payroll");
    expect(hits[0]?.item.embedderId).toBe("openai:m@64");
  });

  it("stores items without vectors when the provider is down, and recall falls back to lexical", async () => {
    let down = true;
    const s = await server({ reply: () => (down ? { status: 503, body: "unavailable" } : undefined) });
    const m = tempMemory({
      embedder: createOpenAiEmbedder({ baseUrl: s.baseUrl, model: "m", dimensions: 64 }),
    });
    const item = await m.ingest.add({ key: "Payroll", content: "Payroll runs in Gusto." });
    expect(item.embedderId).toBeNull();
    expect(m.logs.some((l) => l.includes("embedding failed") && l.includes("HTTP 503"))).toBe(true);
    expect((await m.reader.recall("payroll"))[0]?.item.id).toBe(item.id);
    down = false;
    expect(await m.ingest.reembed()).toBe(1);
    expect(m.reader.status().pendingEmbeddings).toBe(0);
  });
});
