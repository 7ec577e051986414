/**
 * The capabilities behind the agent tools that act, bound to one flow step. Each goes through the node
 * that does the same thing (`http.request`, `email.send`, `flow.call`, `code`) with the step's own
 * context, so a tool call gets exactly the node's SSRF guard, credential host binding, sub-flow caller
 * (which keeps the run's policy channel) and sandbox — nothing here re-implements them.
 */
import { type ActionCapabilities, createActionTools, type JsonObject, type Tool } from "@switchyard/agent";
import type { SettingsRepo } from "@switchyard/db";
import type { Item, NodeContext, NodeDefinition } from "@switchyard/engine";
import { callNode, codeNode, httpRequestNode, sendEmailNode } from "@switchyard/nodes";
import { z } from "zod";

/** Settings › `agents.email`: the SMTP credential (and optional sender) `send_email` uses. */
export const agentEmailSettingsSchema = z.object({
  credentialId: z.string().min(1),
  from: z.string().min(3).optional(),
});

export const AGENT_EMAIL_SETTING = "agents.email";

/** Parses a node's config the way the engine does before `execute`; a mistake names the tool's field. */
function nodeConfig<S extends z.ZodType>(node: NodeDefinition<S>, raw: unknown): z.infer<S> {
  const parsed = node.config.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(config)"}: ${i.message}`)
      .join("; ");
    throw new Error(`invalid ${node.type} request: ${issues}`);
  }
  return parsed.data;
}

async function runNode<S extends z.ZodType>(
  node: NodeDefinition<S>,
  raw: unknown,
  input: Item[],
  ctx: NodeContext,
  signal: AbortSignal,
): Promise<Item[]> {
  const config = nodeConfig(node, raw);
  // The step's context with the tool call's signal (the turn's deadline and cancellation).
  const callCtx = Object.create(ctx, { signal: { value: signal } }) as NodeContext;
  const result = await node.execute({ config, input, ctx: callCtx });
  if ("items" in result) return result.items;
  return Object.values(result.outputs).flat();
}

const jsonOf = (items: Item[]): JsonObject[] => items.map((i) => i.json);

export function createStepCapabilities(ctx: NodeContext, settings: SettingsRepo): ActionCapabilities {
  return {
    async httpRequest(req, signal) {
      const [item] = await runNode(
        httpRequestNode,
        {
          method: req.method,
          url: req.url,
          ...(req.headers ? { headers: req.headers } : {}),
          ...(req.body ? { body: req.body } : {}),
          ...(req.auth ? { auth: req.auth } : {}),
          // The model sees the status and decides; a retry would repeat a write the model did not ask twice.
          retries: 0,
          failOnStatus: false,
          timeoutMs: 30_000,
          maxResponseBytes: 1_000_000,
        },
        [],
        ctx,
        signal,
      );
      const json = item!.json as { status: number; headers: Record<string, string>; body: unknown };
      return { status: json.status, headers: json.headers, body: json.body };
    },

    async sendEmail(mail, signal) {
      const stored = agentEmailSettingsSchema.safeParse(await settings.get(AGENT_EMAIL_SETTING));
      if (!stored.success) {
        throw new Error(
          `no SMTP credential is set for agents: choose one in the "${AGENT_EMAIL_SETTING}" setting ({ credentialId }), e.g. with settings.agentEmail.set`,
        );
      }
      const [item] = await runNode(
        sendEmailNode,
        {
          credentialId: stored.data.credentialId,
          ...(stored.data.from ? { from: stored.data.from } : {}),
          to: mail.to,
          ...(mail.cc ? { cc: mail.cc } : {}),
          subject: mail.subject,
          text: mail.text,
        },
        [{ json: {} }],
        ctx,
        signal,
      );
      return item!.json as { messageId?: string; accepted: string[]; rejected: string[] };
    },

    async startFlow(flowId, items, signal) {
      const out = await runNode(
        callNode,
        { flowId },
        items.map((json) => ({ json })),
        ctx,
        signal,
      );
      return jsonOf(out);
    },

    async runCode(code, items, signal) {
      const out = await runNode(
        codeNode,
        { code },
        items.map((json) => ({ json })),
        ctx,
        signal,
      );
      return jsonOf(out);
    },
  };
}

/** The tools that act for one step: what the executor hands the agent runner with each agent request. */
export function stepActionTools(ctx: NodeContext, settings: SettingsRepo): Tool[] {
  return createActionTools(createStepCapabilities(ctx, settings));
}
