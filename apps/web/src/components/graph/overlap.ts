/**
 * When a graph must be laid out on open: a flow written without positions (REST, CLI import, other
 * tools) parses with every node at 0,0, so "stacked" and "unpositioned" are the same test.
 */
import type { Position } from "@switchyard/contracts";

export interface Box {
  id: string;
  position: Position;
  width: number;
  height: number;
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return (
    a.position.x < b.position.x + b.width &&
    b.position.x < a.position.x + a.width &&
    a.position.y < b.position.y + b.height &&
    b.position.y < a.position.y + a.height
  );
}

/** True when any two boxes overlap: someone would see one node hidden under another. */
export function needsLayout(boxes: readonly Box[]): boolean {
  // Sorted by x, each box only meets the ones that start before it ends: fine for thousands of nodes.
  const sorted = [...boxes].sort((a, b) => a.position.x - b.position.x);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length && sorted[j]!.position.x < a.position.x + a.width; j++)
      if (boxesOverlap(a, sorted[j]!)) return true;
  }
  return false;
}
