import { type WebhookAuth, webhookConfig, webhookPayload } from "@switchyard/contracts/triggers";
import { defineTrigger } from "../define";

const PRESET_HEADERS = { github: "X-Hub-Signature-256", stripe: "Stripe-Signature" } as const;

/** The header an HMAC-authenticated webhook reads its signature from. */
export function webhookSignatureHeader(auth: Extract<WebhookAuth, { type: "hmac" }>): string {
  if (auth.header) return auth.header;
  return auth.preset === "custom" ? "X-Signature" : PRESET_HEADERS[auth.preset];
}

/** An HTTP endpoint that starts the flow. */
export const webhookTrigger = defineTrigger({
  type: "trigger.webhook",
  typeVersion: 1,
  title: "Webhook",
  description: "Starts the flow when an HTTP request arrives at its path.",
  icon: "webhook",
  channel: "webhook",
  config: webhookConfig,
  example: {
    path: "orders/created",
    methods: ["POST"],
    auth: { type: "hmac", credentialId: "cred-github", preset: "github" },
    responseMode: "sync",
    syncTimeoutMs: 10_000,
    idempotency: { header: "Idempotency-Key", ttlSec: 3600 },
    rateLimitPerMin: 600,
    bodyType: "json",
    maxBodyBytes: 262_144,
  },
  payload: webhookPayload,
});
