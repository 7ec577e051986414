import { z } from "zod";
import { defineNode } from "../define";
import { NodeError } from "../errors";

/**
 * Response headers a flow may not set. Hooks are served from the app's own origin: a cookie, a cleared
 * site or a relaxed security policy there would act on the signed-in users of the app (#18). The
 * defaults the server adds (`content-security-policy: sandbox`, `x-content-type-options: nosniff`) are
 * in this list, so a flow cannot override them either.
 */
export const forbiddenResponseHeaders: ReadonlySet<string> = new Set([
  "set-cookie",
  "set-cookie2",
  "clear-site-data",
  "content-security-policy",
  "content-security-policy-report-only",
  "x-content-type-options",
  "strict-transport-security",
  "x-frame-options",
  "cross-origin-opener-policy",
  "cross-origin-embedder-policy",
  "cross-origin-resource-policy",
  "access-control-allow-credentials",
  "permissions-policy",
  // Reporting policies are cached for the whole origin: they would send the app's URLs elsewhere.
  "nel",
  "report-to",
  "reporting-endpoints",
  // Framing and the connection are the server's: it sets the length of the body it sends, and a
  // protocol switch or hop-by-hop header would let a proxy treat the connection differently.
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "proxy-connection",
  "te",
  "trailer",
]);

/**
 * Statuses a webhook answer may have. An informational (1xx) status is an interim answer: the client
 * (or a proxy sharing the connection) would take the next answer on the connection as this request's,
 * and 101 announces a protocol switch, so a flow answers with a final status only.
 */
export function responseStatusAllowed(status: unknown): status is number {
  return typeof status === "number" && Number.isInteger(status) && status >= 200 && status <= 599;
}

const statusMessage =
  "a webhook answer's status must be 200–599: an informational (1xx) status would make the client or a proxy take the next answer on the connection for this one";

/** Whether a flow may set this response header (names compare case-insensitively). */
export function responseHeaderAllowed(name: string): boolean {
  return !forbiddenResponseHeaders.has(name.trim().toLowerCase());
}

const responseHeaders = z
  .record(z.string(), z.string())
  .default({})
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      if (responseHeaderAllowed(name)) continue;
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: `a flow cannot set the ${name} header: webhook answers are served from the app's origin, so cookies, security and framing headers are the server's`,
      });
    }
  })
  .describe("Response headers (cookies and security headers are refused)");

/** Answers the HTTP call that started a sync webhook run; items pass through. */
export const respondNode = defineNode({
  type: "webhook.respond",
  typeVersion: 1,
  pure: true,
  title: "Respond to webhook",
  description: "Sends the HTTP response for a webhook in sync mode.",
  category: "network",
  icon: "reply",
  ports: ["main"],
  config: z.object({
    status: z
      .number()
      .int()
      .min(200, statusMessage)
      .max(599, statusMessage)
      .default(200)
      .describe("HTTP status code (200–599)"),
    headers: responseHeaders,
    body: z
      .unknown()
      .optional()
      .describe("Response body (an expression or JSON); when empty, the first item's JSON"),
  }),
  example: { status: 201, headers: { "content-type": "application/json" }, body: "={ 'id': item.id }" },
  async execute({ config, input, ctx }) {
    if (!ctx.webhook) {
      throw new NodeError(
        "not_configured",
        "no webhook is waiting for a response (the run was not started by a sync webhook)",
        {
          nodeId: ctx.nodeId,
          retryable: false,
        },
      );
    }
    const body = config.body === undefined ? (input[0]?.json ?? null) : config.body;
    ctx.webhook.respond({ status: config.status, headers: config.headers, body });
    return { items: input };
  },
});
