/**
 * The tools a delegating agent uses to manage its sub-agent sessions (seed: list_subagents,
 * continue_subagent, plus wait and cancel). Offered to every agent with a `[subagents] allowlist`,
 * next to its delegate tools; read_only like them: each child runs under its own policy session.
 */
import { z } from "zod";
import type { Tool } from "../tools/tool";
import { formatResult, type SubagentRegistry } from "./subagent-sessions";

export const SUBAGENT_TOOL_NAMES = [
  "list_subagents",
  "wait_subagents",
  "cancel_subagent",
  "continue_subagent",
] as const;

const sessionId = z.string().trim().min(1).describe("A session id such as sa-1, as returned when it started");

export function createSubagentTools(registry: SubagentRegistry): Tool[] {
  return [
    {
      name: "list_subagents",
      description:
        "Lists the sub-agent sessions of this turn: id, agent and status (running, completed, incomplete, failed, cancelled).",
      permission: "read_only",
      inputSchema: z.strictObject({}),
      async execute() {
        const all = registry.sessions;
        if (all.length === 0) return "No sub-agent sessions in this turn yet.";
        return all
          .map(
            (s) =>
              `${s.id} · agent ${s.agent.id} · ${s.status}${s.status !== "running" ? (s.delivered ? " · result delivered" : " · result not yet delivered") : ""}`,
          )
          .join("\n");
      },
    },
    {
      name: "wait_subagents",
      description:
        "Waits until the given sub-agent sessions end (default: every running one and every result you have not seen) and returns their results.",
      permission: "read_only",
      inputSchema: z.strictObject({
        session_ids: z.array(sessionId).optional().describe("Sessions to wait for; omit for all"),
      }),
      async execute(args, ctx) {
        const { session_ids } = args as { session_ids?: string[] };
        const done = await registry.wait(session_ids);
        ctx.signal.throwIfAborted();
        if (done.length === 0)
          return "No sub-agents to wait for: none is running and every result was delivered.";
        return done.map(formatResult).join("\n\n");
      },
    },
    {
      name: "cancel_subagent",
      description:
        "Stops a running sub-agent session; whatever it produced so far comes back as a [SUBAGENT_INCOMPLETE] hand-back.",
      permission: "read_only",
      inputSchema: z.strictObject({ session_id: sessionId }),
      async execute(args) {
        const { session_id } = args as { session_id: string };
        const before = registry.get(session_id).status;
        const session = await registry.cancel(session_id);
        if (before !== "running")
          return `Sub-agent session ${session.id} had already ended (${before}); nothing to cancel.`;
        session.delivered = true;
        return `Cancelled sub-agent session ${session.id} (agent ${session.agent.id}).\n${session.result ?? ""}`;
      },
    },
    {
      name: "continue_subagent",
      description:
        "Sends a follow-up message to a sub-agent session that has ended (completed or incomplete); it continues with its whole earlier conversation. Runs in the background unless blocking is true.",
      permission: "read_only",
      inputSchema: z.strictObject({
        session_id: sessionId,
        message: z.string().trim().min(1).describe("The follow-up: a question or further instructions"),
        blocking: z.boolean().optional().describe("Wait for the answer (default false)"),
      }),
      async execute(args, ctx) {
        const { session_id, message, blocking } = args as {
          session_id: string;
          message: string;
          blocking?: boolean;
        };
        const session = registry.continue(session_id, message);
        ctx.link?.({ childTurnId: session.turnIds.at(-1)!, subagentSessionId: session.id });
        if (!blocking) {
          return `Sent the follow-up to sub-agent session ${session.id} (agent ${session.agent.id}); it is running again in the background.`;
        }
        await session.done;
        ctx.signal.throwIfAborted();
        session.delivered = true;
        if (session.incomplete) ctx.link?.({ incomplete: session.incomplete });
        return session.result ?? "";
      },
    },
  ];
}
