/**
 * Delegate tools for agents with a `[subagents] allowlist` (spec §5): one per entry, named by the
 * target's delegate_name, described by its when_to_use, taking the hand-off envelope. `blocking`
 * (default true) waits for the child; `blocking: false` spawns it in the background and returns its
 * session id at once (see subagent-sessions.ts and subagent-tools.ts).
 */
import { MAX_DELEGATION_DEPTH, tierRefusal } from "../definitions/rules";
import type { AgentDefinition } from "../definitions/schema";
import { handoffEnvelopeSchema, renderHandoff } from "../prompt/handoff";
import type { Tool } from "../tools/tool";
import type { SubagentRegistry } from "./subagent-sessions";

/** Thrown (and reported to the parent model) when a child cannot run at all. */
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
  registry: SubagentRegistry,
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
        const message = {
          userMessage: renderHandoff(envelope),
          prompt: envelope.prompt,
          ...(envelope.model ? { model: envelope.model } : {}),
        };
        const blocking = envelope.blocking !== false;
        const session = registry.spawn(child, message, blocking ? "sync" : "async");
        ctx.link?.({ childTurnId: session.turnIds.at(-1)!, subagentSessionId: session.id });
        if (!blocking) {
          return `Started sub-agent session ${session.id} (agent ${child.id}) in the background. Its result reaches you when it ends; call wait_subagents to wait for it, list_subagents to see every session, cancel_subagent to stop it.`;
        }
        await session.done;
        ctx.signal.throwIfAborted();
        session.delivered = true;
        if (session.incomplete) ctx.link?.({ incomplete: session.incomplete });
        return session.result ?? "";
      },
    });
  }
  return tools;
}
