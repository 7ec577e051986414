import { type AgentDefinition, DEFAULT_RETRIEVAL_ONLY_AGENTS } from "@switchyard/agent";
import { z } from "zod";
import { router, TRPCError, viewerProcedure } from "../trpc";
import { CHANNELS, effectiveCeilings, previewPolicy } from "./policy-preview";
import { readLlm } from "./settings-llm";

const retrievalOnly = new Set<string>(DEFAULT_RETRIEVAL_ONLY_AGENTS);

function summary(def: AgentDefinition) {
  return {
    id: def.id,
    displayName: def.displayName,
    whenToUse: def.whenToUse,
    tier: def.agentTier,
    sandboxMode: def.sandboxMode,
    modelHint: def.model.hint ?? null,
    modelExact: def.model.exact ?? null,
    tools: def.tools === "all" ? null : [...def.tools],
    subagents: [...def.subagents],
    maxResultChars: def.maxResultChars ?? null,
    maxIterations: def.maxIterations,
    iterationPolicy: def.iterationPolicy,
    temperature: def.temperature,
    timeoutSecs: def.timeoutSecs ?? null,
    versionHash: def.versionHash,
    retrievalOnly: retrievalOnly.has(def.id),
  };
}

/** The channels a trigger or a person starts runs on: what the agents page shows per agent. */
export const ACCESS_CHANNELS = ["webhook", "email", "cron", "api", "manual"] as const;

/**
 * Per channel, which tools a run would get: the runner's own policy session (previewPolicy → agentSession),
 * so the page and the runtime cannot disagree. `hidden` is what the agent does not list.
 */
function toolAccess(
  def: AgentDefinition,
  definitions: ReadonlyMap<string, AgentDefinition>,
  ceilings: Record<string, string>,
) {
  return ACCESS_CHANNELS.map((channel) => {
    const p = previewPolicy(def, definitions, channel, ceilings);
    return {
      channel,
      allowedPermission: p.allowedPermission,
      allowed: p.allowed,
      hidden: p.hidden,
      denied: p.denied,
    };
  });
}

/** The agent definitions the runtime has loaded, read-only: they are edited as files in agents/. */
export const agentRouter = router({
  list: viewerProcedure.query(async ({ ctx }) => {
    const { definitions } = ctx.host.services.agents();
    const provider = await readLlm(ctx.host);
    const { ceilings } = effectiveCeilings(await ctx.host.settings.get("policy.channelCeilings"));
    return {
      // Only whether one is set: the URL and models are the owner's business (Settings › Models).
      providerConfigured: provider !== null,
      agents: [...definitions.values()].map((def) => ({
        ...summary(def),
        access: toolAccess(def, definitions, ceilings),
      })),
    };
  }),

  /** One definition with its prompt and what it may do on every channel under the saved ceilings. */
  get: viewerProcedure.input(z.object({ id: z.string().min(1).max(100) })).query(async ({ ctx, input }) => {
    const { definitions } = ctx.host.services.agents();
    const def = definitions.get(input.id);
    if (!def)
      throw new TRPCError({ code: "NOT_FOUND", message: `no agent definition "${input.id}" is loaded` });
    const { ceilings } = effectiveCeilings(await ctx.host.settings.get("policy.channelCeilings"));
    return {
      ...summary(def),
      delegateName: def.delegateName,
      omit: { ...def.omit },
      prompt: def.prompt,
      providerConfigured: (await readLlm(ctx.host)) !== null,
      policy: CHANNELS.map((channel) => previewPolicy(def, definitions, channel, ceilings)),
    };
  }),
});
