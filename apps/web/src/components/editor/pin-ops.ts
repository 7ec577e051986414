/**
 * Pinned data in the editor: a node's output items kept in the flow (`pinData`) so editor runs reuse
 * them instead of executing the node again (n8n's "pin data"). Pure doc edits plus reading run output.
 */
import type { PinnedItem } from "@switchyard/contracts";
import type { FlowDoc } from "./types";

/** Sets (or replaces) a node's pinned items. */
export function pinItems(doc: FlowDoc, nodeId: string, items: PinnedItem[]): FlowDoc {
  return { ...doc, pinData: { ...doc.pinData, [nodeId]: items } };
}

/** Pins several nodes at once (one undo step for "pin data from run"). */
export function pinMany(doc: FlowDoc, pins: Record<string, PinnedItem[]>): FlowDoc {
  if (Object.keys(pins).length === 0) return doc;
  return { ...doc, pinData: { ...doc.pinData, ...pins } };
}

export function unpin(doc: FlowDoc, nodeId: string): FlowDoc {
  if (!doc.pinData?.[nodeId]) return doc;
  const { [nodeId]: _gone, ...rest } = doc.pinData;
  const { pinData: _old, ...withoutPins } = doc;
  return Object.keys(rest).length ? { ...withoutPins, pinData: rest } : withoutPins;
}

const isItem = (v: unknown): v is PinnedItem =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as PinnedItem).json === "object" &&
  (v as PinnedItem).json !== null &&
  !Array.isArray((v as PinnedItem).json);

/**
 * The items a stored step output (`{ port: items }`) holds on `port`, or null when they cannot be pinned
 * faithfully (truncated on storage, or not items at all).
 */
export function pinnableItems(output: unknown, port: string): PinnedItem[] | null {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return null;
  if ((output as { __truncated?: unknown }).__truncated === true) return null;
  const items = (output as Record<string, unknown>)[port];
  if (items === undefined) return [];
  if (!Array.isArray(items) || !items.every(isItem)) return null;
  return items.map((i) => (i.binary ? { json: i.json, binary: i.binary } : { json: i.json }));
}
