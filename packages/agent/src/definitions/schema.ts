/** agent.toml shape (spec/AGENTS.md §1), snake_case as written, parsed once with zod. */
import { z } from "zod";

export const AGENT_TIERS = ["chat", "reasoning", "worker"] as const;
export type AgentTier = (typeof AGENT_TIERS)[number];
export const MODEL_HINTS = ["burst", "agentic", "reasoning", "coding", "chat"] as const;
export type ModelHint = (typeof MODEL_HINTS)[number];
export type SandboxMode = "none" | "read_only" | "sandboxed";

const identifier = z.string().regex(/^[a-z][a-z0-9_]*$/, "must be lower_snake_case (a-z, 0-9, _)");
const toolName = z
  .string()
  .regex(/^[a-zA-Z0-9_-]{1,64}$/, "must be 1-64 characters of a-z, A-Z, 0-9, _ or -");

export const agentTomlSchema = z.strictObject({
  id: identifier,
  display_name: z.string().min(1).optional(),
  when_to_use: z.string().trim().min(1, "is required: one paragraph shown to a parent agent"),
  delegate_name: toolName.optional(),
  temperature: z.number().min(0).max(2).default(0.4),
  max_iterations: z.int().min(1).max(200).default(8),
  iteration_policy: z.enum(["strict", "extended"]).default("strict"),
  max_result_chars: z.int().positive().optional(),
  timeout_secs: z.int().positive().optional(),
  sandbox_mode: z.enum(["none", "read_only", "sandboxed"]).default("none"),
  agent_tier: z.enum(AGENT_TIERS).default("worker"),
  omit_identity: z.boolean().default(true),
  omit_memory_context: z.boolean().default(true),
  omit_safety_preamble: z.boolean().default(true),
  omit_profile: z.boolean().default(true),
  omit_memory_md: z.boolean().default(true),
  model: z
    .strictObject({ hint: z.enum(MODEL_HINTS).optional(), exact: z.string().min(1).optional() })
    .refine((m) => !(m.hint && m.exact), "set either `hint` or `exact`, not both")
    .optional(),
  tools: z.strictObject({ named: z.array(toolName).optional() }).optional(),
  subagents: z.strictObject({ allowlist: z.array(identifier).optional() }).optional(),
});
export type AgentToml = z.infer<typeof agentTomlSchema>;

/** A loaded, validated definition (camelCase, defaults applied). */
export interface AgentDefinition {
  readonly id: string;
  readonly displayName: string;
  readonly whenToUse: string;
  /** Name of the delegate tool a parent gets: `delegate_name`, else `delegate_<id>`. */
  readonly delegateName: string;
  readonly temperature: number;
  readonly maxIterations: number;
  readonly iterationPolicy: "strict" | "extended";
  readonly maxResultChars?: number;
  readonly timeoutSecs?: number;
  readonly sandboxMode: SandboxMode;
  readonly agentTier: AgentTier;
  readonly omit: {
    readonly identity: boolean;
    readonly memoryContext: boolean;
    readonly safetyPreamble: boolean;
    readonly profile: boolean;
    readonly memoryMd: boolean;
  };
  /** Neither set → inherit the default model from settings. */
  readonly model: { readonly hint?: ModelHint; readonly exact?: string };
  /** `"all"` when `[tools] named` is absent. */
  readonly tools: readonly string[] | "all";
  readonly subagents: readonly string[];
  /** prompt.md, verbatim. */
  readonly prompt: string;
  /** Hash of agent.toml + prompt.md; recorded in every trace. */
  readonly versionHash: string;
}

/** `extended` raises the cap to max(max_iterations, 50). */
export function effectiveMaxIterations(
  def: Pick<AgentDefinition, "maxIterations" | "iterationPolicy">,
): number {
  return def.iterationPolicy === "extended" ? Math.max(def.maxIterations, 50) : def.maxIterations;
}

export function toDefinition(toml: AgentToml, prompt: string, versionHash: string): AgentDefinition {
  const model: { hint?: ModelHint; exact?: string } = {};
  if (toml.model?.hint) model.hint = toml.model.hint;
  if (toml.model?.exact) model.exact = toml.model.exact;
  const def: AgentDefinition = {
    id: toml.id,
    displayName: toml.display_name ?? toml.id,
    whenToUse: toml.when_to_use.trim(),
    delegateName: toml.delegate_name ?? `delegate_${toml.id}`,
    temperature: toml.temperature,
    maxIterations: toml.max_iterations,
    iterationPolicy: toml.iteration_policy,
    ...(toml.max_result_chars !== undefined ? { maxResultChars: toml.max_result_chars } : {}),
    ...(toml.timeout_secs !== undefined ? { timeoutSecs: toml.timeout_secs } : {}),
    sandboxMode: toml.sandbox_mode,
    agentTier: toml.agent_tier,
    omit: Object.freeze({
      identity: toml.omit_identity,
      memoryContext: toml.omit_memory_context,
      safetyPreamble: toml.omit_safety_preamble,
      profile: toml.omit_profile,
      memoryMd: toml.omit_memory_md,
    }),
    model: Object.freeze(model),
    tools: toml.tools?.named ? Object.freeze([...toml.tools.named]) : "all",
    subagents: Object.freeze([...(toml.subagents?.allowlist ?? [])]),
    prompt,
    versionHash,
  };
  return Object.freeze(def);
}
