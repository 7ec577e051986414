"use client";

import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getBezierPath } from "@xyflow/react";
import { memo } from "react";
import { removeElements } from "./doc-ops";
import type { RfEdge } from "./rf-adapter";
import { useEditor } from "./store";

const none = new Set<string>();

/** A bezier edge that shows a delete button while selected. */
export const DeletableEdge = memo(function DeletableEdge(props: EdgeProps<RfEdge>) {
  const { id, selected, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd } =
    props;
  const [path, labelX, labelY] = getBezierPath({
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
  });
  const port = props.data?.edge.from.port;
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        markerEnd={markerEnd}
        style={{
          strokeWidth: selected ? 2.5 : 1.75,
          stroke: selected ? "var(--color-brand-500)" : port === "error" ? "#ef4444" : undefined,
        }}
      />
      {selected ? (
        <EdgeLabelRenderer>
          <button
            type="button"
            aria-label="Delete connection"
            data-testid="edge-delete"
            className="nodrag nopan absolute grid h-6 w-6 place-items-center rounded-full border border-slate-300 bg-white text-xs text-slate-600 shadow hover:border-red-400 hover:text-red-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200"
            style={{
              transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)`,
              pointerEvents: "all",
            }}
            onClick={() => useEditor.getState().edit((doc) => removeElements(doc, none, new Set([id]), none))}
          >
            ✕
          </button>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});
