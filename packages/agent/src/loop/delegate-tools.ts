/**
 * Delegate tools for agents with a `[subagents] allowlist` (spec §5): one per entry, named by the
 * target's delegate_name, described by its when_to_use, taking the hand-off envelope.
 */
import { MAX_DELEGATION_DEPTH, tierRefusal } from "../definitions/rules";
import type { AgentDefinition } from "../definitions/schema";
import { type HandoffEnvelope, handoffEnvelopeSchema } from "../prompt/handoff";
import type { Tool, ToolContext } from "../tools/tool";

export interface ChildOutcome {
  text: string;
  turnId: string;
}

export type RunChild = (
  child: AgentDefinition,
  envelope: HandoffEnvelope,
  ctx: ToolContext,
) => Promise<ChildOutcome>;

/** Thrown (and reported to the parent model) when a child cannot run or fails. */
export class DelegationError extends Error {
  constructor(
    message: string,
    readonly childTurnId?: string,
  ) {
    super(message);
    this.name = "DelegationError";
  }
}

export function createDelegateTools(
  parent: AgentDefinition,
  definitions: ReadonlyMap<string, AgentDefinition>,
  runChild: RunChild,
): Tool[] {
  const tools: Tool[] = [];
  for (const childId of parent.subagents) {
    const child = definitions.get(childId);
    if (!child) continue; // the loader refuses unknown subagents; a later removal just drops the tool
    tools.push({
      name: child.delegateName,
      description: child.whenToUse,
      // Delegating itself only reads; the child gets its own policy session on the same channel.
      permission: "read_only",
      inputSchema: handoffEnvelopeSchema,
      async execute(args, ctx) {
        // Tier and depth are checked again here: definitions may have been reloaded since load time.
        const refusal = tierRefusal(parent, child);
        if (refusal) throw new DelegationError(refusal);
        if (ctx.depth + 1 > MAX_DELEGATION_DEPTH) {
          throw new DelegationError(
            `delegation depth limit of ${MAX_DELEGATION_DEPTH} reached: \`${parent.id}\` cannot hand off to \`${child.id}\``,
          );
        }
        const envelope = handoffEnvelopeSchema.parse(args);
        try {
          const outcome = await runChild(child, envelope, ctx);
          return outcome.text;
        } catch (err) {
          if (ctx.signal.aborted || err instanceof DelegationError) throw err;
          const message = err instanceof Error ? err.message : String(err);
          throw new DelegationError(
            `delegation to \`${child.id}\` failed: ${message}`,
            (err as { turnId?: string }).turnId,
          );
        }
      },
    });
  }
  return tools;
}
