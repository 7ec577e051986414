"use client";

import { useReactFlow, useStore } from "@xyflow/react";
import { useEffect, useRef } from "react";
import { openingViewport } from "./opening-viewport";

/**
 * Rendered inside <ReactFlow>: sets the opening viewport once, when the pane has a size and the graph
 * has nodes. Unmeasured nodes count at `fallback` size (offscreen nodes may never be measured).
 */
export function OpeningViewport({ fallback }: { fallback: { width: number; height: number } }) {
  const { getNodes, setViewport } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const count = useStore((s) => s.nodes.length);
  const done = useRef(false);
  useEffect(() => {
    if (done.current || width === 0 || height === 0 || count === 0) return;
    done.current = true;
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const n of getNodes()) {
      const w = n.measured?.width ?? fallback.width;
      const h = n.measured?.height ?? fallback.height;
      minX = Math.min(minX, n.position.x);
      minY = Math.min(minY, n.position.y);
      maxX = Math.max(maxX, n.position.x + w);
      maxY = Math.max(maxY, n.position.y + h);
    }
    void setViewport(
      openingViewport({ x: minX, y: minY, width: maxX - minX, height: maxY - minY }, { width, height }),
    );
  }, [width, height, count, getNodes, setViewport, fallback]);
  return null;
}
