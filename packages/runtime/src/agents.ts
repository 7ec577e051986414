import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type AgentDefinition,
  BUILTIN_TOOL_CATALOG,
  createAgentRunner,
  createHttpGetTool,
  createOpenAiCompatibleProvider,
  DEFAULT_CHANNEL_CEILINGS,
  loadAgents,
  type ManagedAgentRunner,
} from "@switchyard/agent";
import type { SettingsRepo } from "@switchyard/db";
import type { HttpClient, SecretsReader } from "@switchyard/engine";
import { assertCredentialHost } from "@switchyard/nodes";
import { createMemoryTools, type MemoryReader, readUserFiles } from "@switchyard/memory";
import { z } from "zod";
import type { Logger } from "./logger";

export const defaultAgentsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../agents");

/** Settings › Models: one OpenAI-compatible provider and a model per hint. */
export const llmSettingsSchema = z.object({
  baseUrl: z.url(),
  credentialId: z.string().min(1).optional(),
  models: z.record(z.string(), z.string().min(1)).default({}),
});
export type LlmSettings = z.infer<typeof llmSettingsSchema>;

export const channelCeilingsSchema = z.record(z.string(), z.string());

export interface AgentServices {
  definitions: Map<string, AgentDefinition>;
  /** Accepts per-step tools (the tools that act) on top of the engine's AgentRunner contract. */
  runner: ManagedAgentRunner;
}

/**
 * An LLM provider credential's key and the check that sends it only to the credential's allowed hosts
 * (run per call, so a refusal fails the step): the agent runtime and the settings page's test use both.
 */
export async function providerKey(
  secrets: SecretsReader,
  credentialId: string | undefined,
): Promise<{ apiKey?: string; checkKeyHost?: (url: URL) => void }> {
  if (!credentialId) return {};
  const { data } = await secrets.get(credentialId);
  return {
    apiKey: data.apiKey,
    checkKeyHost: (url) => assertCredentialHost(credentialId, data, url.hostname),
  };
}

/** Loads agents/ and builds the runner from the current settings (called again when settings change). */
export async function createAgentServices(o: {
  agentsDir: string;
  settings: SettingsRepo;
  secrets: SecretsReader;
  http: HttpClient;
  memory: MemoryReader;
  log: Logger;
}): Promise<AgentServices> {
  const definitions = await loadAgents(o.agentsDir, BUILTIN_TOOL_CATALOG);
  const llm = llmSettingsSchema.safeParse(await o.settings.get("llm.provider"));
  const ceilings = channelCeilingsSchema.safeParse(await o.settings.get("policy.channelCeilings"));
  const { apiKey, checkKeyHost } = await providerKey(
    o.secrets,
    llm.success ? llm.data.credentialId : undefined,
  );
  const runner = createAgentRunner({
    definitions,
    tools: [createHttpGetTool(o.http)],
    memory: { tools: createMemoryTools(o.memory), readUserFiles: () => readUserFiles(o.memory) },
    provider: llm.success
      ? createOpenAiCompatibleProvider({ baseUrl: llm.data.baseUrl, apiKey, checkKeyHost })
      : undefined,
    modelForHint: (hint) => {
      if (!llm.success) return "";
      const model = llm.data.models[hint ?? "default"] ?? llm.data.models.default;
      if (!model)
        throw new Error(`no model configured for hint '${hint ?? "default"}' — set it in Settings › Models`);
      return model;
    },
    channelCeilings: ceilings.success ? ceilings.data : { ...DEFAULT_CHANNEL_CEILINGS },
    concurrency: 8,
    redact: apiKey ? [apiKey] : [],
  });
  o.log.info(
    { agents: [...definitions.keys()], provider: llm.success ? llm.data.baseUrl : null },
    "agents loaded",
  );
  return { definitions, runner };
}
