import type { AgentRunResult } from "@switchyard/engine";
import { z } from "zod";
import { defineNode } from "../define";
import { NodeError, notConfigured } from "../errors";
import { isPlainObject } from "../util/items";

/** Parses the agent's answer for response_format json; fences are tolerated, prose is not. */
function parseJsonAnswer(res: AgentRunResult, nodeId: string): unknown {
  if (res.json !== undefined) return res.json;
  const text = res.text.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n```$/, "$1");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new NodeError("agent_failed", `agent "${res.agent_ref}" did not answer with JSON`, {
      nodeId,
      retryable: true,
      cause: err,
    });
  }
}

/** Hands one step to an AI agent (spec/AGENTS.md §2). Keys follow the spec's snake_case. */
export const agentNode = defineNode({
  type: "agent",
  typeVersion: 1,
  title: "Agent",
  description: "Asks an AI agent to do one step, with upstream data as context.",
  category: "ai",
  icon: "sparkles",
  ports: ["main"],
  runMode: "perItem",
  config: z
    .object({
      agent_ref: z
        .string()
        .min(1)
        .max(100)
        .describe("Agent definition to use (one of the agents loaded from agents/)")
        .meta({ title: "Agent", "x-picker": "agent" }),
      prompt: z
        .string()
        .min(1)
        .max(50_000)
        .describe("Instruction for the agent; {{ }} interpolation allowed"),
      input_context: z
        .unknown()
        .optional()
        .describe("Upstream data passed as data, never as instructions, e.g. =item"),
      model: z.string().min(1).max(200).optional().describe("Model override"),
      timeout_secs: z.number().int().min(10).max(600).default(240).describe("Time limit, in seconds"),
      response_format: z
        .enum(["text", "json"])
        .default("text")
        .describe("Free text, or a single JSON object"),
      json_schema: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("JSON Schema the answer should follow (response_format json)"),
      on_limit: z
        .enum(["fail", "return_partial"])
        .default("fail")
        .describe(
          "When the agent reaches its iteration limit: fail the step, or pass on its partial answer (marked stop: limit_stop)",
        ),
    })
    .refine((c) => c.json_schema === undefined || c.response_format === "json", {
      message: "json_schema needs response_format json",
      path: ["json_schema"],
    }),
  example: {
    agent_ref: "support_triage",
    prompt: "Classify this ticket as bug, question or feature request.",
    input_context: "=item",
    timeout_secs: 120,
    response_format: "json",
    json_schema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
  },
  async execute({ config, ctx }) {
    if (!ctx.agents) throw notConfigured("Agents", ctx.nodeId);
    const timeoutMs = config.timeout_secs * 1000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    let res: AgentRunResult;
    try {
      res = await ctx.agents.run({
        agentRef: config.agent_ref,
        prompt: config.prompt,
        inputContext: config.input_context ?? null,
        channel: ctx.run.channel,
        responseFormat:
          config.response_format === "json" ? { type: "json", schema: config.json_schema } : { type: "text" },
        model: config.model,
        timeoutMs,
        signal,
      });
    } catch (err) {
      if (err instanceof NodeError) throw err;
      if (timeout.aborted) {
        throw new NodeError(
          "timeout",
          `agent "${config.agent_ref}" did not finish within ${config.timeout_secs} s`,
          {
            nodeId: ctx.nodeId,
            cause: err,
          },
        );
      }
      if (ctx.signal.aborted)
        throw new NodeError("cancelled", "agent step cancelled", { nodeId: ctx.nodeId, cause: err });
      throw new NodeError("agent_failed", `agent "${config.agent_ref}" failed: ${(err as Error).message}`, {
        nodeId: ctx.nodeId,
        cause: err,
      });
    }
    // An answer forced out at the iteration limit is incomplete: it never passes as success unasked.
    if (res.stop === "limit_stop" && config.on_limit === "fail") {
      const limit = res.maxIterations === undefined ? "" : ` (${res.maxIterations})`;
      throw new NodeError(
        "agent_failed",
        `agent "${res.agent_ref}" stopped at its iteration limit${limit} without a final answer; set on_limit to "return_partial" to pass on its partial answer`,
        { nodeId: ctx.nodeId },
      );
    }
    if (config.response_format === "text") {
      const json = {
        text: res.text,
        agent_ref: res.agent_ref,
        stop: res.stop,
        ...(res.usage ? { usage: res.usage } : {}),
      };
      return { items: [{ json }] };
    }
    const parsed = parseJsonAnswer(res, ctx.nodeId);
    return { items: [{ json: isPlainObject(parsed) ? parsed : { value: parsed } }] };
  },
});
