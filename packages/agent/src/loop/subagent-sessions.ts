/**
 * The sub-agent sessions of one parent turn (seed: `running_subagents`). Every delegation — waited
 * for or spawned in the background — is a session with a stable id (`sa-1`, `sa-2`, … per parent
 * turn), an agent, a status and the child's transcript, so the parent can list, wait for, cancel
 * and continue it. Children run under the parent turn's signal: a step that times out or is
 * cancelled takes its children with it, and `shutdown` waits for them, so no child work outlives
 * the step.
 */
import type { AgentDefinition } from "../definitions/schema";
import type { ChatMessage } from "../llm/provider";
import { DelegationError } from "./delegate-tools";
import { type IncompleteReason, renderIncomplete } from "./incomplete";
import type { SubagentBudget } from "./limit";

export type SubagentStatus = "running" | "completed" | "incomplete" | "failed" | "cancelled";

/** What a finished child turn hands back to the registry. */
export interface ChildRun {
  text: string;
  stop: "finished" | "limit_stop";
  turnId: string;
  /** The child's conversation without its system prompt, final answer included (for continue). */
  transcript: ChatMessage[];
  maxIterations: number;
}

export interface ChildStart {
  userMessage: string;
  prompt: string;
  model?: string;
  history: readonly ChatMessage[];
  turnId: string;
  sessionId: string;
  signal: AbortSignal;
}

export type StartChild = (child: AgentDefinition, start: ChildStart) => Promise<ChildRun>;

export interface SubagentSession {
  readonly id: string;
  readonly agent: AgentDefinition;
  readonly mode: "sync" | "async";
  status: SubagentStatus;
  /** Every turn this session ran (a continue adds one); the last is the current one. */
  readonly turnIds: string[];
  /** The text handed to the parent: the answer, or the `[SUBAGENT_INCOMPLETE]` envelope. */
  result?: string;
  incomplete?: IncompleteReason;
  /** True once the parent has seen the result (a tool result or an automatic delivery). */
  delivered: boolean;
  transcript: ChatMessage[];
  controller: AbortController;
  done: Promise<void>;
}

export class SubagentCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SubagentCancelledError";
  }
}

export class SubagentRegistry {
  readonly #sessions = new Map<string, SubagentSession>();
  #next = 1;
  #anyAsync = false;

  constructor(
    private readonly o: {
      parentSignal: AbortSignal;
      budget: SubagentBudget;
      start: StartChild;
      newTurnId: () => string;
    },
  ) {}

  get sessions(): SubagentSession[] {
    return [...this.#sessions.values()];
  }

  get(id: string): SubagentSession {
    const s = this.#sessions.get(id);
    if (!s) {
      const known = this.sessions.map((x) => x.id);
      throw new Error(
        `unknown sub-agent session \`${id}\`; sessions in this turn: ${known.length ? known.join(", ") : "none"}`,
      );
    }
    return s;
  }

  /** Starts a new session (a delegation) and returns it at once; `done` settles when the child ends. */
  spawn(
    child: AgentDefinition,
    message: { userMessage: string; prompt: string; model?: string },
    mode: "sync" | "async",
  ): SubagentSession {
    this.#reserve(child);
    const session: SubagentSession = {
      id: `sa-${this.#next++}`,
      agent: child,
      mode,
      status: "running",
      turnIds: [],
      delivered: false,
      transcript: [],
      controller: new AbortController(),
      done: Promise.resolve(),
    };
    this.#sessions.set(session.id, session);
    if (mode === "async") this.#anyAsync = true;
    this.#run(session, { ...message, history: [] });
    return session;
  }

  /** Sends a follow-up to a session that has ended with an answer or a hand-back; runs it again. */
  continue(id: string, message: string): SubagentSession {
    const session = this.get(id);
    if (session.status === "running") {
      throw new Error(
        `sub-agent session \`${id}\` is still running; wait for it (wait_subagents) before sending a follow-up`,
      );
    }
    if (session.status === "failed" || session.status === "cancelled") {
      throw new Error(
        `sub-agent session \`${id}\` ${session.status === "failed" ? "failed" : "was cancelled"} and cannot be continued; delegate a new task instead`,
      );
    }
    this.#reserve(session.agent);
    session.status = "running";
    session.delivered = false;
    delete session.result;
    delete session.incomplete;
    session.controller = new AbortController();
    this.#anyAsync = true;
    this.#run(session, { userMessage: message, prompt: message, history: session.transcript });
    return session;
  }

  /** Stops a running session; its partial output comes back as a `cancelled` hand-back. */
  async cancel(id: string): Promise<SubagentSession> {
    const session = this.get(id);
    if (session.status === "running") {
      session.controller.abort(new SubagentCancelledError("cancelled by the parent agent"));
      await session.done;
    }
    return session;
  }

  /** Waits for the given sessions (default: every running one and every result not yet seen). */
  async wait(ids?: readonly string[]): Promise<SubagentSession[]> {
    const picked = ids?.length
      ? ids.map((id) => this.get(id))
      : this.sessions.filter((s) => s.status === "running" || !s.delivered);
    await Promise.all(picked.map((s) => s.done));
    for (const s of picked) s.delivered = true;
    return picked;
  }

  /** A child is still running, or its result has not reached the parent yet. */
  pending(): boolean {
    return this.sessions.some((s) => s.status === "running" || !s.delivered);
  }

  /** Waits for every running child. */
  async settle(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.done));
  }

  /** Results of children that ended since the parent last looked, each delivered once. */
  takeFinished(): string[] {
    const out: string[] = [];
    for (const s of this.sessions) {
      if (s.status === "running" || s.delivered) continue;
      s.delivered = true;
      out.push(formatResult(s));
    }
    return out;
  }

  /**
   * `[active_subagents]` for the parent's next model call: id, agent and status of every session,
   * shown once a child has been spawned in the background (a waited-for delegation is answered in
   * its own tool result and needs no reminder).
   */
  activeBlock(): string | null {
    if (!this.#anyAsync) return null;
    const lines = this.sessions.map((s) => `- ${s.id} · agent ${s.agent.id} · ${s.status}`);
    return `[active_subagents]\n${lines.join("\n")}\n[/active_subagents]`;
  }

  /** The parent turn is ending: stop what still runs and wait, so nothing outlives the step. */
  async shutdown(reason: unknown): Promise<void> {
    for (const s of this.sessions) if (s.status === "running") s.controller.abort(reason);
    await this.settle();
  }

  #reserve(child: AgentDefinition): void {
    const { budget } = this.o;
    // Refused rather than queued: a parent waiting on a child that waits for a slot would deadlock.
    if (budget.running >= budget.limit) {
      throw new DelegationError(
        `delegation to \`${child.id}\` refused: this agent run already has ${budget.limit} sub-agent${budget.limit === 1 ? "" : "s"} running (the limit); wait for an answer before delegating more`,
      );
    }
    budget.running++;
  }

  #run(
    session: SubagentSession,
    message: { userMessage: string; prompt: string; model?: string; history: readonly ChatMessage[] },
  ): void {
    const turnId = this.o.newTurnId();
    session.turnIds.push(turnId);
    const signal = AbortSignal.any([this.o.parentSignal, session.controller.signal]);
    const ownSignal = session.controller.signal;
    session.done = this.o
      .start(session.agent, { ...message, turnId, sessionId: session.id, signal })
      .then(
        (run) => {
          session.transcript = run.transcript;
          if (run.stop === "finished") {
            session.status = "completed";
            session.result = run.text;
            return;
          }
          this.#incomplete(
            session,
            "iteration_limit",
            `stopped at its iteration limit (${run.maxIterations}) before a final answer`,
            run.text,
          );
        },
        (err: unknown) => {
          const partial = (err as { partial?: string } | null)?.partial ?? "";
          if (ownSignal.aborted) {
            this.#incomplete(session, "cancelled", messageOf(ownSignal.reason), partial, "cancelled");
          } else if (this.o.parentSignal.aborted) {
            this.#incomplete(
              session,
              "cancelled",
              `the parent step ended: ${messageOf(this.o.parentSignal.reason)}`,
              partial,
              "cancelled",
            );
          } else if ((err as Error | null)?.name === "AgentTimeoutError") {
            this.#incomplete(session, "timeout", messageOf(err), partial);
          } else {
            this.#incomplete(session, "failed", messageOf(err), partial, "failed");
          }
        },
      )
      .finally(() => {
        this.o.budget.running--;
      });
  }

  #incomplete(
    session: SubagentSession,
    reason: IncompleteReason,
    detail: string,
    partial: string,
    status: SubagentStatus = "incomplete",
  ): void {
    session.status = status;
    session.incomplete = reason;
    session.result = renderIncomplete({
      sessionId: session.id,
      agentId: session.agent.id,
      reason,
      detail,
      partial,
    });
  }
}

/** How a child's result reaches the parent outside a tool result (automatic delivery, wait_subagents). */
export function formatResult(s: SubagentSession): string {
  return `[subagent_result]\nsession: ${s.id}\nagent: ${s.agent.id}\nstatus: ${s.status}\n\n${s.result ?? ""}\n[/subagent_result]`;
}

function messageOf(v: unknown): string {
  return v instanceof Error ? v.message : String(v);
}
