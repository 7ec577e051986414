import type { Item, NodeExecuteArgs } from "@switchyard/engine";

/**
 * What this package's nodes receive. `inputsByPort` is an addition to the engine's
 * NodeExecuteArgs: the items per input port, for nodes with several inputs (flow.merge byKey).
 * The executor should pass it; nodes fall back to `input` when it is absent.
 */
export type NodeArgs<C> = NodeExecuteArgs<C> & {
  inputsByPort?: Record<string, Item[]>;
};
