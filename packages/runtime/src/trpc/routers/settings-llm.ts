import { createOpenAiCompatibleProvider, MODEL_HINTS } from "@switchyard/agent";
import { assertCredentialHost } from "@switchyard/nodes";
import { llmSettingsSchema, providerKey } from "../../agents";
import type { Host } from "../../host";
import { z } from "zod";
import { TRPCError } from "../trpc";

/** The `[model] hint`s an agent can ask for, plus the fallback used when a hint has no model. */
export const MODEL_SLOTS = [...MODEL_HINTS, "default"] as const;

const modelName = z.string().trim().max(200);
export const llmInputSchema = z.object({
  baseUrl: z
    .url({ protocol: /^https?$/, error: "enter an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1" })
    .max(2000),
  credentialId: z.string().min(1).max(100).optional(),
  models: z.partialRecord(z.enum(MODEL_SLOTS), modelName),
});
export type LlmInput = z.infer<typeof llmInputSchema>;

export const testConnectionInputSchema = z.object({
  baseUrl: llmInputSchema.shape.baseUrl,
  credentialId: z.string().min(1).max(100).optional(),
  model: z.string().trim().min(1, "enter the model to test, e.g. the default model").max(200),
});

/**
 * The key stays on the server: resolved here from the vault, never sent to or from the browser.
 * With `baseUrl`, also refuses a provider host the key's credential may not be sent to (a field error).
 */
export async function llmApiKey(
  host: Host,
  credentialId: string | undefined,
  baseUrl?: string,
): Promise<string | undefined> {
  if (!credentialId) return undefined;
  const row = (await host.services.vault.list()).find((c) => c.id === credentialId);
  if (!row) throw new TRPCError({ code: "BAD_REQUEST", message: "the chosen credential no longer exists" });
  if (row.type !== "llmProvider")
    throw new TRPCError({
      code: "BAD_REQUEST",
      message: `"${row.name}" is not an LLM provider API key credential`,
    });
  const { data } = await host.services.vault.reader.get(credentialId);
  if (baseUrl) {
    try {
      assertCredentialHost(credentialId, data, new URL(baseUrl).hostname);
    } catch (e) {
      const message = (e as Error).message;
      throw new TRPCError({
        code: "BAD_REQUEST",
        message,
        cause: new z.ZodRealError([{ code: "custom", path: ["baseUrl"], message, input: baseUrl }]),
      });
    }
  }
  return data.apiKey;
}

export async function readLlm(host: Host) {
  const parsed = llmSettingsSchema.safeParse(await host.settings.get("llm.provider"));
  return parsed.success ? parsed.data : null;
}

/** Empty model boxes mean "not set": they are dropped rather than stored as "". */
export function cleanModels(models: LlmInput["models"]): Record<string, string> {
  return Object.fromEntries(Object.entries(models).filter((e): e is [string, string] => !!e[1]?.trim()));
}

const TEST_PROMPT = "Reply with the single word: pong";

/**
 * One real chat-completions call with a tiny prompt, no retries, short timeout: the person sees at
 * once whether the URL, key and model work, or the provider's exact error.
 */
export async function testConnection(host: Host, input: z.infer<typeof testConnectionInputSchema>) {
  // Checks the credential's type first; providerKey then binds the key to its allowed hosts.
  await llmApiKey(host, input.credentialId);
  const { apiKey, checkKeyHost } = await providerKey(host.services.vault.reader, input.credentialId);
  const provider = createOpenAiCompatibleProvider({
    baseUrl: input.baseUrl,
    ...(apiKey ? { apiKey } : {}),
    ...(checkKeyHost ? { checkKeyHost } : {}),
    maxRetries: 0,
    requestTimeoutMs: 20_000,
  });
  const started = performance.now();
  try {
    const res = await provider.chat({
      model: input.model,
      messages: [{ role: "user", content: TEST_PROMPT }],
      temperature: 0,
    });
    const reply = (res.content ?? "").slice(0, 200);
    return {
      ok: true as const,
      latencyMs: Math.round(performance.now() - started),
      model: res.model ?? input.model,
      reply: apiKey ? reply.split(apiKey).join("[redacted]") : reply,
    };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false as const,
      latencyMs: Math.round(performance.now() - started),
      error: apiKey ? message.split(apiKey).join("[redacted]") : message,
    };
  }
}
