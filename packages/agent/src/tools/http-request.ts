/**
 * `http_request`: call an HTTP API (including writes: POST/PUT/PATCH/DELETE). The host runs it through
 * the `http.request` node's client: the SSRF guard, and a credential only ever sent to its bound hosts.
 */
import { capChars } from "@switchyard/contracts/cap";
import { z } from "zod";
import { type ActionCapabilities, toolJson } from "./actions";
import type { Tool } from "./tool";

const input = z
  .strictObject({
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).describe("HTTP method"),
    url: z.url({ protocol: /^https?$/ }).describe("Absolute http(s) URL"),
    headers: z.record(z.string(), z.string()).optional().describe("Request headers"),
    json: z.unknown().optional().describe("Body sent as JSON"),
    text: z.string().optional().describe("Body sent as plain text"),
    auth: z
      .strictObject({
        type: z.enum(["bearer", "basic", "header"]),
        credential_id: z.string().min(1),
      })
      .optional()
      .describe("A stored credential to authenticate with; it is only sent to the hosts it is bound to"),
  })
  .refine((a) => a.json === undefined || a.text === undefined, {
    message: "give either json or text as the body, not both",
    path: ["text"],
  });

export function createHttpRequestTool(cap: ActionCapabilities, maxChars = 20_000): Tool {
  return {
    name: "http_request",
    description:
      "Call an HTTP API with GET, POST, PUT, PATCH or DELETE and return its status and body. Changes things in other systems: use only when the task asks for it.",
    permission: "write",
    network: true,
    inputSchema: input,
    async execute(args, ctx) {
      const a = input.parse(args);
      const res = await cap.httpRequest(
        {
          method: a.method,
          url: a.url,
          ...(a.headers ? { headers: a.headers } : {}),
          ...(a.json !== undefined ? { body: { type: "json" as const, value: a.json } } : {}),
          ...(a.text !== undefined
            ? { body: { type: "raw" as const, content: a.text, contentType: "text/plain" } }
            : {}),
          ...(a.auth ? { auth: { type: a.auth.type, credentialId: a.auth.credential_id } } : {}),
        },
        ctx.signal,
      );
      const body = typeof res.body === "string" ? res.body : toolJson(res.body);
      return `HTTP ${res.status}\n\n${capChars(body, maxChars).text}`;
    },
  };
}
