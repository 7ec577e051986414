/**
 * Every tool call the model makes goes through here and nowhere else: the policy session decides,
 * arguments are parsed and validated, and only then is the tool executed. Refusals and errors go
 * back to the model as tool results; nothing denied, hidden or unknown ever runs.
 */
import { capChars } from "@switchyard/contracts/cap";
import type { ToolCall } from "../llm/provider";
import type { ToolPolicySession } from "../policy/session";
import type { Tool, ToolCallLink, ToolContext } from "../tools/tool";
import type { ToolCallTrace } from "./trace";

export const DEFAULT_MAX_TOOL_RESULT_CHARS = 20_000;

export interface DispatchResult {
  content: string;
  trace: ToolCallTrace;
}

export function refusalMessage(name: string): string {
  return `Tool \`${name}\` is not available in this run; the call was refused by policy and nothing was executed. Continue with the tools you have.`;
}

export async function dispatchToolCall(
  call: ToolCall,
  iteration: number,
  session: ToolPolicySession,
  tools: ReadonlyMap<string, Tool>,
  ctx: ToolContext,
  maxResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS,
): Promise<DispatchResult> {
  const started = performance.now();
  const base = { iteration, id: call.id, name: call.name };
  const elapsed = () => Math.round(performance.now() - started);
  const known = session.decisions.has(call.name);
  const decision = session.decisionFor(call.name);
  const tool = tools.get(call.name);

  let args: unknown;
  let argsValid = true;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    args = call.arguments;
    argsValid = false;
  }

  if (decision.action !== "allow" || !tool) {
    const refusal = refusalMessage(call.name);
    return {
      content: refusal,
      trace: {
        ...base,
        args,
        decision: known ? decision.action : "unknown",
        outcome: "refused",
        refusal,
        reason: known ? decision.reason : "not a tool of this agent (fail closed)",
        latencyMs: elapsed(),
      },
    };
  }
  if (!argsValid) {
    const error = `Error: the arguments for \`${call.name}\` are not valid JSON. Call it again with a JSON object that matches its schema.`;
    return {
      content: error,
      trace: { ...base, args, decision: "allow", outcome: "invalid_args", error, latencyMs: elapsed() },
    };
  }
  const parsed = tool.inputSchema.safeParse(args);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(arguments)"}: ${i.message}`)
      .join("; ");
    const error = `Error: invalid arguments for \`${call.name}\`: ${issues}`;
    return {
      content: error,
      trace: { ...base, args, decision: "allow", outcome: "invalid_args", error, latencyMs: elapsed() },
    };
  }
  const linked: ToolCallLink = {};
  const callCtx: ToolContext = { ...ctx, link: (info) => Object.assign(linked, info) };
  try {
    const raw = await tool.execute(parsed.data, callCtx);
    const result = capChars(String(raw), maxResultChars).text;
    return {
      content: result,
      trace: {
        ...base,
        args,
        decision: "allow",
        outcome: "executed",
        result,
        latencyMs: elapsed(),
        ...linked,
      },
    };
  } catch (err) {
    // A cancelled turn must stop, not report the abort to the model as a tool failure.
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const message = err instanceof Error ? err.message : String(err);
    const error = `Error: tool \`${call.name}\` failed: ${message}`;
    const childTurnId = (err as { childTurnId?: string }).childTurnId ?? linked.childTurnId;
    return {
      content: error,
      trace: {
        ...base,
        args,
        decision: "allow",
        outcome: "error",
        error,
        latencyMs: elapsed(),
        ...linked,
        ...(childTurnId ? { childTurnId } : {}),
      },
    };
  }
}
