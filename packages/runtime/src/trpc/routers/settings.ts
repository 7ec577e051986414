import { PERMISSION_LEVELS } from "@switchyard/agent";
import type { Host } from "../../host";
import { z } from "zod";
import { ownerProcedure, router, TRPCError } from "../trpc";
import {
  BOUNDARY_MAX_BYTES,
  CHANNELS,
  ceilingsInputSchema,
  effectiveCeilings,
  previewPolicy,
  safeDefaultCeilings,
} from "./policy-preview";
import { audit as auditRow } from "../../auth";
import { agentEmailRouter } from "./settings-agent-email";
import {
  cleanModels,
  llmApiKey,
  llmInputSchema,
  MODEL_SLOTS,
  readLlm,
  testConnection,
  testConnectionInputSchema,
} from "./settings-llm";

/** Audit rows for settings changes (details never hold secrets). */
async function audit(host: Host, actorId: string, action: string, details?: Record<string, unknown>) {
  await auditRow(host, actorId, action, null, details);
}

/**
 * Writes a setting the agent runtime reads, then rebuilds the runtime. If the rebuild fails the old
 * value is put back, so what is stored always matches what is running.
 */
async function saveAndReload(host: Host, key: string, value: unknown) {
  const previous = await host.settings.get(key);
  await host.settings.set(key, value);
  try {
    await host.services.reloadAgents();
  } catch (err) {
    await host.settings.set(key, previous ?? null);
    throw new TRPCError({
      code: "INTERNAL_SERVER_ERROR",
      message: `saved settings could not be applied, nothing changed: ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}

const hostName = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\[[0-9a-f:.]+\]|[0-9a-f]*:[0-9a-f:.]+|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/,
    "enter a bare host name or IP address (no scheme, port or path), e.g. 127.0.0.1 or ollama.internal",
  )
  .max(253);

const llmRouter = router({
  get: ownerProcedure.query(async ({ ctx }) => ({ provider: await readLlm(ctx.host), slots: MODEL_SLOTS })),

  /** Saves the provider and rebuilds the agent runtime with it. */
  set: ownerProcedure.input(llmInputSchema).mutation(async ({ ctx, input }) => {
    // Refuses a missing or wrong-type credential, or one not bound to the provider's host.
    await llmApiKey(ctx.host, input.credentialId, input.baseUrl);
    const value = {
      baseUrl: input.baseUrl,
      ...(input.credentialId ? { credentialId: input.credentialId } : {}),
      models: cleanModels(input.models),
    };
    await saveAndReload(ctx.host, "llm.provider", value);
    await audit(ctx.host, ctx.user.id, "settings.llm.updated", {
      baseUrl: value.baseUrl,
      models: value.models,
    });
    return { provider: value };
  }),

  /** Back to no provider: retrieval-only agents keep answering, the others fail with a clear error. */
  clear: ownerProcedure.mutation(async ({ ctx }) => {
    await saveAndReload(ctx.host, "llm.provider", null);
    await audit(ctx.host, ctx.user.id, "settings.llm.cleared");
    return { provider: null };
  }),

  test: ownerProcedure
    .input(testConnectionInputSchema)
    .mutation(({ ctx, input }) => testConnection(ctx.host, input)),
});

const policyRouter = router({
  get: ownerProcedure.query(async ({ ctx }) => {
    const { ceilings, stored } = effectiveCeilings(await ctx.host.settings.get("policy.channelCeilings"));
    return {
      ceilings,
      stored,
      defaults: safeDefaultCeilings(),
      channels: CHANNELS,
      levels: PERMISSION_LEVELS,
    };
  }),

  set: ownerProcedure.input(z.object({ ceilings: ceilingsInputSchema })).mutation(async ({ ctx, input }) => {
    const value = Object.fromEntries(Object.entries(input.ceilings).filter(([, v]) => v !== undefined));
    await saveAndReload(ctx.host, "policy.channelCeilings", value);
    await audit(ctx.host, ctx.user.id, "settings.policy.updated", { ceilings: value });
    return { ceilings: value };
  }),

  reset: ownerProcedure.mutation(async ({ ctx }) => {
    const value = safeDefaultCeilings();
    await saveAndReload(ctx.host, "policy.channelCeilings", value);
    await audit(ctx.host, ctx.user.id, "settings.policy.reset", { ceilings: value });
    return { ceilings: value };
  }),

  /** What an agent would be allowed on a channel under these (possibly unsaved) ceilings. */
  preview: ownerProcedure
    .input(
      z.object({
        agentId: z.string().min(1).max(100),
        channel: z.enum(CHANNELS),
        ceilings: ceilingsInputSchema,
      }),
    )
    .query(({ ctx, input }) => {
      const { definitions } = ctx.host.services.agents();
      const def = definitions.get(input.agentId);
      if (!def)
        throw new TRPCError({
          code: "NOT_FOUND",
          message: `no agent definition "${input.agentId}" is loaded`,
        });
      const ceilings = Object.fromEntries(Object.entries(input.ceilings).filter(([, v]) => v !== undefined));
      return { ...previewPolicy(def, definitions, input.channel, ceilings), maxBytes: BOUNDARY_MAX_BYTES };
    }),
});

const networkRouter = router({
  get: ownerProcedure.query(async ({ ctx }) => {
    const stored = z.array(z.string()).safeParse(await ctx.host.settings.get("http.allowHosts"));
    return { allowHosts: stored.success ? stored.data : [] };
  }),

  /** Applies to the next outbound request: the host rebuilds its HTTP client. */
  set: ownerProcedure
    .input(z.object({ allowHosts: z.array(hostName).max(100) }))
    .mutation(async ({ ctx, input }) => {
      const allowHosts = [...new Set(input.allowHosts)];
      await ctx.host.settings.set("http.allowHosts", allowHosts);
      await ctx.host.services.reloadHttp();
      await audit(ctx.host, ctx.user.id, "settings.network.updated", { allowHosts });
      return { allowHosts };
    }),
});

export const settingsRouter = router({
  llm: llmRouter,
  policy: policyRouter,
  network: networkRouter,
  agentEmail: agentEmailRouter,
});
