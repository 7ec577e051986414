import { afterEach, describe, expect, it } from "vitest";
import { type ScriptedLlmServer, startScriptedLlmServer } from "../testing/scripted-llm-server";
import { createOpenAiCompatibleProvider, retryAfterMs } from "./openai-compatible";
import { LlmProviderError } from "./provider";

let server: ScriptedLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { initialBackoffMs: 1, maxBackoffMs: 5 };

describe("OpenAI-compatible provider against the scripted server", () => {
  it("refuses to send the API key to a base URL its credential is not bound to, before any request", async () => {
    server = await startScriptedLlmServer([{ content: "hi" }]);
    const checked: string[] = [];
    const provider = createOpenAiCompatibleProvider({
      baseUrl: server.url,
      apiKey: "sk-test-123",
      checkKeyHost: (url) => {
        checked.push(url.hostname);
        throw new Error(
          'credential "llm" may not be sent to 127.0.0.1: its allowed hosts are api.openai.com',
        );
      },
      ...fast,
    });
    const err = await provider
      .chat({ model: "m1", messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(LlmProviderError);
    expect([err.message, err.retryable]).toEqual([
      'credential "llm" may not be sent to 127.0.0.1: its allowed hosts are api.openai.com',
      false,
    ]);
    expect(checked).toEqual(["127.0.0.1"]);
    expect(server.requests).toHaveLength(0);
  });

  it("sends model, messages, tools and the bearer key, and parses content, tool calls and usage", async () => {
    server = await startScriptedLlmServer([
      {
        toolCalls: [{ id: "c1", name: "memory_recall", arguments: { query: "Dana" } }],
        usage: { promptTokens: 42, completionTokens: 7 },
      },
    ]);
    const provider = createOpenAiCompatibleProvider({
      baseUrl: `${server.url}/`,
      apiKey: "sk-test-123",
      ...fast,
    });
    const res = await provider.chat({
      model: "m1",
      temperature: 0.3,
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
        { role: "assistant", content: null, toolCalls: [{ id: "c0", name: "x", arguments: "{}" }] },
        { role: "tool", toolCallId: "c0", name: "x", content: "ok" },
      ],
      tools: [{ name: "memory_recall", description: "d", parameters: { type: "object" } }],
    });
    expect(res).toEqual({
      content: null,
      toolCalls: [{ id: "c1", name: "memory_recall", arguments: '{"query":"Dana"}' }],
      finishReason: "tool_calls",
      usage: { promptTokens: 42, completionTokens: 7 },
      model: "m1",
    });
    const req = server.requests[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test-123");
    expect(req.body).toMatchObject({
      model: "m1",
      temperature: 0.3,
      tools: [
        {
          type: "function",
          function: { name: "memory_recall", description: "d", parameters: { type: "object" } },
        },
      ],
    });
    expect(req.body.messages[2]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c0", type: "function", function: { name: "x", arguments: "{}" } }],
    });
    expect(req.body.messages[3]).toEqual({ role: "tool", tool_call_id: "c0", content: "ok" });
  });

  it("retries 429 and 5xx, honouring Retry-After, then succeeds", async () => {
    server = await startScriptedLlmServer([
      { status: 429, headers: { "retry-after": "0" }, body: '{"error":"slow down"}' },
      { status: 503, body: "upstream busy" },
      { content: "done" },
    ]);
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, ...fast });
    const res = await provider.chat({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(res.content).toBe("done");
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after the bounded retries with an error naming the status and a body excerpt", async () => {
    server = await startScriptedLlmServer(() => ({ status: 500, body: `boom ${"z".repeat(1000)}` }));
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, maxRetries: 2, ...fast });
    const err = await provider.chat({ model: "m", messages: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(LlmProviderError);
    expect(err.status).toBe(500);
    expect(err.message).toMatch(
      /^LLM provider returned HTTP 500 for http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions after 3 attempts: boom z+$/,
    );
    expect(err.bodyExcerpt.length).toBe(300);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 400 and keeps the API key out of the error", async () => {
    server = await startScriptedLlmServer([{ status: 400, body: "bad key sk-secret-999 rejected" }]);
    const provider = createOpenAiCompatibleProvider({
      baseUrl: server.url,
      apiKey: "sk-secret-999",
      ...fast,
    });
    const err = await provider.chat({ model: "m", messages: [] }).catch((e) => e);
    expect(err.message).toContain("HTTP 400");
    expect(err.message).toContain("bad key [redacted] rejected");
    expect(err.message).not.toContain("sk-secret-999");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses to wait for a Retry-After beyond its limit", async () => {
    server = await startScriptedLlmServer([
      { status: 429, headers: { "retry-after": "3600" }, body: "quota" },
    ]);
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, maxRetryAfterMs: 1000, ...fast });
    await expect(provider.chat({ model: "m", messages: [] })).rejects.toThrow(
      /HTTP 429 .* asked to retry after 3600 s, longer than the 1 s limit: quota/,
    );
  });

  it("stops when the caller's signal aborts", async () => {
    server = await startScriptedLlmServer([{ hang: true }]);
    const provider = createOpenAiCompatibleProvider({ baseUrl: server.url, ...fast });
    const ac = new AbortController();
    const pending = provider.chat({ model: "m", messages: [], signal: ac.signal });
    setTimeout(() => ac.abort(new Error("cancelled by test")), 20);
    await expect(pending).rejects.toThrow("cancelled by test");
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
