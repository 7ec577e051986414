/**
 * `http_get`: fetch one URL for the researcher. The host's HttpClient enforces the SSRF guard;
 * this tool only shapes the request and bounds what goes back into the model's context.
 */
import { capChars } from "@switchyard/contracts/cap";
import { z } from "zod";
import type { Tool } from "./tool";

/** Structurally identical to the engine contract's HttpClient. */
export interface HttpGetClient {
  request(req: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    timeoutMs?: number;
    maxResponseBytes?: number;
    signal?: AbortSignal;
  }): Promise<{ status: number; headers: Record<string, string>; body: Uint8Array; url: string }>;
}

export interface HttpGetOptions {
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Characters of body text handed back to the model. */
  maxChars?: number;
}

const input = z.strictObject({
  url: z.url({ protocol: /^https?$/ }).describe("Absolute http(s) URL to fetch"),
});

const TEXTUAL =
  /^(text\/|application\/(json|xml|xhtml\+xml|ld\+json|rss\+xml|atom\+xml)|[^;]*\+json|[^;]*\+xml)/i;

export function createHttpGetTool(http: HttpGetClient, opts: HttpGetOptions = {}): Tool {
  const maxChars = opts.maxChars ?? 20_000;
  return {
    name: "http_get",
    description:
      "Fetch a public web page or JSON document with an HTTP GET and return its status, content type and text.",
    permission: "read_only",
    network: true,
    inputSchema: input,
    async execute(args, ctx) {
      const { url } = input.parse(args);
      const res = await http.request({
        method: "GET",
        url,
        headers: { accept: "text/html, application/json, text/plain;q=0.9, */*;q=0.5" },
        timeoutMs: opts.timeoutMs ?? 15_000,
        maxResponseBytes: opts.maxResponseBytes ?? 1_000_000,
        signal: ctx.signal,
      });
      const type = headerValue(res.headers, "content-type") ?? "unknown";
      const head = `HTTP ${res.status} ${res.url}\ncontent-type: ${type}`;
      if (!TEXTUAL.test(type) && type !== "unknown") {
        return `${head}\n\n(binary body of ${res.body.length} bytes not shown)`;
      }
      const text = new TextDecoder("utf-8", { fatal: false }).decode(res.body);
      return `${head}\n\n${capChars(text, maxChars).text}`;
    },
  };
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}
