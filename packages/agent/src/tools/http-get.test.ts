import { describe, expect, it } from "vitest";
import { createHttpGetTool, type HttpGetClient } from "./http-get";

function fakeHttp(status: number, type: string, body: string) {
  const calls: { method: string; url: string }[] = [];
  const client: HttpGetClient = {
    async request(req) {
      calls.push({ method: req.method, url: req.url });
      return {
        status,
        headers: { "Content-Type": type },
        body: new TextEncoder().encode(body),
        url: req.url,
      };
    },
  };
  return { client, calls };
}

const ctx = { signal: new AbortController().signal, agentId: "researcher", depth: 0 };

describe("http_get tool", () => {
  it("issues a GET through the host client and returns status, type and the text capped at maxChars, marker included", async () => {
    const { client, calls } = fakeHttp(200, "text/plain; charset=utf-8", "x".repeat(50));
    const tool = createHttpGetTool(client, { maxChars: 25 });
    const out = await tool.execute({ url: "https://example.org/a" }, ctx);
    expect(calls).toEqual([{ method: "GET", url: "https://example.org/a" }]);
    expect(out).toBe(
      "HTTP 200 https://example.org/a\ncontent-type: text/plain; charset=utf-8\n\nxxxxxxxxxx\n[...truncated]",
    );
    expect(tool.permission).toBe("read_only");
  });

  it("does not paste binary bodies into the model context", async () => {
    const { client } = fakeHttp(200, "image/png", "\u0000\u0001");
    const out = await createHttpGetTool(client).execute({ url: "http://example.org/p.png" }, ctx);
    expect(out).toContain("(binary body of 2 bytes not shown)");
  });

  it("rejects non-http schemes through its input schema", () => {
    const tool = createHttpGetTool(fakeHttp(200, "text/plain", "").client);
    expect(tool.inputSchema.safeParse({ url: "file:///etc/passwd" }).success).toBe(false);
    expect(tool.inputSchema.safeParse({ url: "https://example.org" }).success).toBe(true);
  });
});
