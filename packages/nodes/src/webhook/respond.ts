import { z } from "zod";
import { defineNode } from "../define";
import { NodeError } from "../errors";

/** Answers the HTTP call that started a sync webhook run; items pass through. */
export const respondNode = defineNode({
  type: "webhook.respond",
  typeVersion: 1,
  pure: true,
  title: "Respond to webhook",
  description: "Sends the HTTP response for a webhook in sync mode.",
  category: "network",
  icon: "reply",
  ports: ["main"],
  config: z.object({
    status: z.number().int().min(100).max(599).default(200).describe("HTTP status code"),
    headers: z.record(z.string(), z.string()).default({}).describe("Response headers"),
    body: z
      .unknown()
      .optional()
      .describe("Response body (an expression or JSON); when empty, the first item's JSON"),
  }),
  example: { status: 201, headers: { "content-type": "application/json" }, body: "={ 'id': item.id }" },
  async execute({ config, input, ctx }) {
    if (!ctx.webhook) {
      throw new NodeError(
        "not_configured",
        "no webhook is waiting for a response (the run was not started by a sync webhook)",
        {
          nodeId: ctx.nodeId,
          retryable: false,
        },
      );
    }
    const body = config.body === undefined ? (input[0]?.json ?? null) : config.body;
    ctx.webhook.respond({ status: config.status, headers: config.headers, body });
    return { items: input };
  },
});
