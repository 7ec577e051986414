import type { AnyNodeType, NodeRegistry } from "@switchyard/engine";
import type { CatalogueEntry } from "@switchyard/contracts/catalogue";
import { catalogue, createRegistry } from "@switchyard/nodes";
import type { TriggerListener } from "./listener";

/** Node and trigger types beyond the shipped ones, given to the host (a plugin, a test). */
export interface HostExtensions {
  nodeTypes?: readonly AnyNodeType[];
  /** Each brings its trigger definition along; it need not be listed in `nodeTypes` too. */
  triggerListeners?: readonly TriggerListener[];
}

export interface TypeRegistry {
  /** What the engine, validation and the flow cache look node types up in. */
  nodes: NodeRegistry & { types(): string[] };
  /** The listener of a trigger type; every trigger type has exactly one. */
  listenerOf(type: string): TriggerListener | undefined;
  listeners: readonly TriggerListener[];
  /** The palette and config forms the editor builds from (plain JSON, built once). */
  catalogue(): CatalogueEntry[];
}

/**
 * One registry of every node type the host runs and the listener of each trigger type. A trigger
 * without a listener, two listeners for one type, or a type id used twice fails here, when the host is
 * built, rather than when someone activates a flow.
 */
export function createTypeRegistry(o: {
  nodeTypes: readonly AnyNodeType[];
  listeners: readonly TriggerListener[];
}): TypeRegistry {
  // A definition given twice (listed and brought by its listener) counts once; two with one id are refused.
  const types = [...new Set([...o.nodeTypes, ...o.listeners.map((l) => l.trigger)])];
  const nodes = createRegistry(types);
  const byType = new Map<string, TriggerListener>();
  for (const l of o.listeners) {
    if (byType.has(l.trigger.type)) throw new Error(`trigger type "${l.trigger.type}" has two listeners`);
    if (nodes.get(l.trigger.type) !== l.trigger)
      throw new Error(
        `the listener of "${l.trigger.type}" serves another definition than the registered one`,
      );
    byType.set(l.trigger.type, l);
  }
  for (const t of types)
    if (t.kind === "trigger" && !byType.has(t.type))
      throw new Error(
        `trigger type "${t.type}" has no listener; declare one with defineTriggerListener and register it in createShippedListeners (or pass it to createHost as a trigger listener)`,
      );
  let entries: CatalogueEntry[] | undefined;
  return {
    nodes,
    listenerOf: (type) => byType.get(type),
    listeners: [...byType.values()],
    catalogue: () => {
      entries ??= catalogue(types);
      return entries;
    },
  };
}
