"use client";

import {
  Background,
  Controls,
  type Edge,
  Handle,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { memo, useMemo } from "react";
import { OpeningViewport } from "../graph/OpeningViewport";
import { RUN_NODE_SIZE, useRunGraphLayout } from "./run-graph-layout";
import { statusBorder, statusTone } from "./status";
import type { NodeTrace } from "./trace-model";

export interface DefinitionShape {
  nodes?: { id: string; type: string; name?: string; position?: { x: number; y: number } }[];
  edges?: { from: { node: string; port?: string }; to: { node: string; port?: string } }[];
}

type RunNodeData = { name: string; type: string; trace: NodeTrace; selected: boolean };
type RunRfNode = Node<RunNodeData, "run">;

const dim = new Set(["skipped", "not_run"]);

/** A node of the run graph: status colour, attempts badge, greyed when its branch did not run. */
const RunNode = memo(function RunNode({ id, data }: NodeProps<RunRfNode>) {
  const { trace } = data;
  return (
    <div
      data-testid="run-node"
      data-node-id={id}
      data-status={trace.status}
      data-attempts={trace.attempts}
      title={trace.errorMessage}
      className={`w-52 rounded-lg border-2 bg-white px-3 py-2 shadow-sm dark:bg-slate-900 ${statusBorder[trace.status] ?? "border-slate-200 dark:border-slate-700"} ${
        dim.has(trace.status) ? "opacity-45" : ""
      } ${data.selected ? "ring-2 ring-brand-500/50" : ""}`}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate text-sm font-medium">{data.name}</span>
        {trace.attempts > 1 ? (
          <span
            data-testid="attempts-badge"
            className="rounded bg-amber-100 px-1 text-[10px] font-semibold text-amber-800 dark:bg-amber-900 dark:text-amber-200"
          >
            ×{trace.attempts}
          </span>
        ) : null}
      </div>
      <div className="mt-1 flex items-center gap-2 text-[11px] text-slate-500">
        <span className="truncate">{data.type}</span>
        <span className={`ml-auto rounded-full px-1.5 ${statusTone[trace.status] ?? ""}`}>
          {trace.status.replace("_", " ")}
        </span>
      </div>
      {trace.status === "failed" && trace.errorMessage ? (
        <div className="mt-1 line-clamp-2 text-[11px] text-red-700 dark:text-red-300">
          {trace.errorMessage}
        </div>
      ) : null}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const nodeTypes = { run: RunNode };

export function RunGraph({
  definition,
  traceOf,
  portOf,
  selectedNodeId,
  onSelectNode,
}: {
  definition: DefinitionShape;
  traceOf: (nodeId: string) => NodeTrace;
  /** The port a node answered on in its latest step, to grey the branches not taken. */
  portOf: (nodeId: string) => string | null;
  selectedNodeId: string | null;
  onSelectNode: (nodeId: string) => void;
}) {
  const layout = useRunGraphLayout(definition);
  const laidOut = layout.state === "ready" ? layout.positions : null;
  const nodes: RunRfNode[] = useMemo(
    () =>
      (definition.nodes ?? []).map((n) => ({
        id: n.id,
        type: "run",
        position: laidOut?.get(n.id) ?? n.position ?? { x: 0, y: 0 },
        data: { name: n.name || n.id, type: n.type, trace: traceOf(n.id), selected: n.id === selectedNodeId },
        draggable: false,
        connectable: false,
      })),
    [definition, traceOf, selectedNodeId, laidOut],
  );
  const edges: Edge[] = useMemo(
    () =>
      (definition.edges ?? []).map((e, i) => {
        const port = e.from.port ?? "main";
        const taken = portOf(e.from.node);
        const dead =
          dim.has(traceOf(e.from.node).status) ||
          dim.has(traceOf(e.to.node).status) ||
          (taken !== null && taken !== port);
        return {
          id: `e${i}`,
          source: e.from.node,
          target: e.to.node,
          label: port === "main" ? undefined : port,
          animated: traceOf(e.to.node).status === "running",
          style: dead ? { stroke: "#cbd5e1", strokeDasharray: "4 4" } : { stroke: "#64748b" },
        };
      }),
    [definition, traceOf, portOf],
  );
  return (
    <div
      className="h-[380px] rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      data-testid="run-graph"
    >
      {layout.state === "pending" ? (
        <p className="p-4 text-sm text-slate-500">Laying out the graph…</p>
      ) : (
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          onNodeClick={(_, n) => onSelectNode(n.id)}
          minZoom={0.1}
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={20} />
          <Controls showInteractive={false} />
          <OpeningViewport fallback={RUN_NODE_SIZE} />
        </ReactFlow>
      )}
      {layout.state === "failed" ? (
        <p role="alert" className="px-3 pb-2 text-xs text-red-700 dark:text-red-300">
          Auto-layout failed ({layout.message}); nodes are shown where the flow stores them.
        </p>
      ) : null}
    </div>
  );
}
