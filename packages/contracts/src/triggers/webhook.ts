/** The webhook trigger's config and the payload its runs receive. */
import { z } from "zod";

const credentialId = z.string().min(1).describe("Credential holding the secret");

export const webhookAuth = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("none").describe("No authentication") }),
    z.object({
      type: z.literal("header").describe("A shared secret in a request header"),
      name: z.string().min(1).max(100).describe("Header name carrying the secret"),
      credentialId,
    }),
    z.object({
      type: z.literal("basic").describe("HTTP Basic authentication"),
      credentialId,
    }),
    z.object({
      type: z.literal("hmac").describe("HMAC signature of the raw body"),
      credentialId,
      preset: z
        .enum(["github", "stripe", "custom"])
        .default("custom")
        .describe("Signature format: GitHub (X-Hub-Signature-256), Stripe (Stripe-Signature) or custom"),
      header: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe("Header carrying the signature (defaults to the preset's header)"),
      toleranceSec: z
        .number()
        .int()
        .min(1)
        .max(3600)
        .optional()
        .describe(
          "Maximum age of a signed timestamp, in seconds (replay protection; Stripe, or custom with a timestamp header)",
        ),
      timestampHeader: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe(
          "Custom HMAC: header with a Unix-seconds timestamp; the signature then covers `<timestamp>.<body>`",
        ),
    }),
  ])
  .refine((a) => a.type !== "hmac" || a.preset !== "custom" || a.header !== undefined, {
    message: "a custom HMAC needs a header name",
    path: ["header"],
  })
  // A tolerance with nothing signed to measure it on would be ignored silently: refuse it instead.
  .refine((a) => a.type !== "hmac" || a.preset !== "github" || a.toleranceSec === undefined, {
    message:
      "GitHub signs only the body (no timestamp), so no replay window can be enforced; remove toleranceSec",
    path: ["toleranceSec"],
  })
  .refine(
    (a) =>
      a.type !== "hmac" ||
      a.preset !== "custom" ||
      a.toleranceSec === undefined ||
      a.timestampHeader !== undefined,
    {
      message: "a custom HMAC checks toleranceSec against a signed timestamp; name its timestampHeader",
      path: ["toleranceSec"],
    },
  )
  .refine((a) => a.type !== "hmac" || a.preset === "custom" || a.timestampHeader === undefined, {
    message: "only a custom HMAC takes a timestampHeader (Stripe's timestamp is inside Stripe-Signature)",
    path: ["timestampHeader"],
  })
  .describe("How callers prove who they are");

export type WebhookAuth = z.infer<typeof webhookAuth>;

/** A webhook trigger's config: where it listens, who may call it and how it answers. */
export const webhookConfig = z.object({
  path: z
    .string()
    .min(1)
    .max(200)
    .regex(
      /^[a-z0-9][a-z0-9_-]*(\/(:[a-z_][a-z0-9_]*|[a-z0-9_-]+))*$/i,
      "use letters, digits, - and _ separated by /; a later segment may be a :name parameter",
    )
    .describe(
      "Path under /hooks/ that receives the calls; a :name segment matches any value (payload params)",
    ),
  methods: z
    .array(z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]))
    .min(1)
    .default(["POST"])
    .describe("HTTP methods accepted"),
  auth: webhookAuth.default({ type: "none" }),
  responseMode: z
    .enum(["async", "sync"])
    .default("async")
    .describe("async answers 202 at once; sync waits for a Respond node or the end of the run"),
  syncTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(30_000)
    .describe("How long a sync call waits for the response, in milliseconds"),
  idempotency: z
    .object({
      header: z.string().min(1).max(100).default("Idempotency-Key").describe("Header with the caller's key"),
      ttlSec: z
        .number()
        .int()
        .min(1)
        .max(7 * 86_400)
        .default(86_400)
        .describe("How long a key is remembered, in seconds"),
    })
    .optional()
    .describe("Replay the first answer for repeated keys instead of starting a new run"),
  rateLimitPerMin: z.number().int().min(1).max(100_000).optional().describe("Maximum calls per minute"),
  bodyType: z
    .enum(["json", "form", "text", "raw"])
    .default("json")
    .describe("How the request body is parsed"),
  maxBodyBytes: z
    .number()
    .int()
    .min(1)
    .max(256 * 1024 * 1024)
    .default(16 * 1024 * 1024)
    .describe("Largest accepted body, in bytes (bigger bodies get 413)"),
});
export type WebhookConfig = z.infer<typeof webhookConfig>;

/**
 * The trigger item of a webhook run: exactly these keys, built by the runtime's hooks handler (request
 * data only ever lands inside them).
 */
export const webhookPayload = z.strictObject({
  method: z.string().describe("HTTP method of the call, upper-case"),
  path: z.string().describe("Request path, e.g. /hooks/orders/42"),
  params: z
    .record(z.string(), z.string())
    .describe('Values of the path\'s :name segments (orders/:id → { id: "42" }); {} for a fixed path'),
  headers: z
    .record(z.string(), z.string())
    .describe("Request headers, lower-cased names; secrets the trigger checks are [masked]"),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).describe("Query parameters"),
  body: z
    .json()
    .describe("Parsed body (per bodyType; raw bodies are base64 strings); null when the body is empty"),
  receivedAt: z.string().describe("ISO time (UTC) the call arrived"),
});
export type WebhookPayload = z.infer<typeof webhookPayload>;
