import {
  PLACEHOLDER_MAX_PORTS,
  PLACEHOLDER_NODE_TYPE,
  placeholderConfig,
  placeholderMessage,
  placeholderPort,
} from "@switchyard/contracts/placeholder";
import { defineNode } from "../define";
import { NodeError } from "../errors";

const ports = Array.from({ length: PLACEHOLDER_MAX_PORTS }, (_, i) => placeholderPort(i));

/**
 * Stands where an importer met a node it cannot translate. It keeps the original parameters (never
 * evaluated: they are in the source tool's expression language) and is a validation problem, so the
 * flow is kept as a draft and activation is refused until someone replaces it.
 */
export const placeholderNode = defineNode({
  type: PLACEHOLDER_NODE_TYPE,
  typeVersion: 1,
  title: "Import placeholder",
  description: "A node an import could not translate; replace it before activating the flow.",
  category: "import",
  icon: "circle-help",
  ports,
  inputs: ports,
  rawFields: ["parameters", "credentials"],
  config: placeholderConfig,
  example: {
    source: "n8n",
    originalType: "n8n-nodes-base.slack",
    originalTypeVersion: 2,
    reason: "Switchyard has no Slack node",
    parameters: { channel: "#general" },
  },
  check: (node) => [
    { code: "placeholder_node", message: placeholderMessage(node.id, node.config), nodeId: node.id },
  ],
  async execute({ config, ctx }) {
    // Manual runs of a draft reach here: fail clearly instead of passing data through silently.
    throw new NodeError("not_configured", placeholderMessage(ctx.nodeId, config), {
      nodeId: ctx.nodeId,
      retryable: false,
    });
  },
});
