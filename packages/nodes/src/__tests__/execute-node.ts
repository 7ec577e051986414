import { type NodeDefinition, parseNodeConfig } from "@switchyard/engine";
import type { NodeArgs } from "../types";

/**
 * Runs a node the way the engine does: the config is parsed once with the engine's `parseNodeConfig`
 * (defaults filled, `config_invalid` naming the node and field), then handed to `execute`.
 */
export function executeNode(
  node: NodeDefinition,
  args: Omit<NodeArgs<unknown>, "config"> & { config: unknown },
): ReturnType<NodeDefinition["execute"]> {
  return Promise.resolve().then(() =>
    node.execute({ ...args, config: parseNodeConfig(node, args.config, args.ctx.nodeId) } as never),
  );
}
