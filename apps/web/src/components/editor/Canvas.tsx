"use client";

import {
  Background,
  BackgroundVariant,
  Controls,
  type Edge,
  type FinalConnectionState,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection as RfConnection,
} from "@xyflow/react";
import { type DragEvent, useCallback, useEffect, useMemo, useState } from "react";
import "@xyflow/react/dist/style.css";
import { OpeningViewport } from "../graph/OpeningViewport";
import { DeletableEdge } from "./DeletableEdge";
import { preloadLayout } from "./layout";
import { addNode, type Connection, connect, explainConnection } from "./doc-ops";
import { FlowNodeCard } from "./FlowNodeCard";
import { toRfEdges, toRfNodes } from "./rf-adapter";
import { StickyNote } from "./StickyNote";
import { useEditor } from "./store";
import { NOTE_PREFIX } from "./types";
import { useDarkMode } from "./use-dark-mode";

// Module scope: React Flow re-mounts every node when these objects change identity.
const nodeTypes = { flow: FlowNodeCard, note: StickyNote };
const edgeTypes = { deletable: DeletableEdge };

export const PALETTE_MIME = "application/x-switchyard-node";
/** A FlowNodeCard's size until React Flow measures it (offscreen nodes are not rendered). */
const NODE_FALLBACK_SIZE = { width: 240, height: 100 };
/** Offset that puts the cursor near a dropped node's header rather than its corner. */
const DROP_OFFSET = { x: 120, y: 24 };

function toConnection(c: RfConnection | Edge): Connection {
  return {
    source: c.source,
    sourceHandle: c.sourceHandle ?? null,
    target: c.target,
    targetHandle: c.targetHandle ?? null,
  };
}

export function Canvas() {
  const doc = useEditor((s) => s.doc);
  const selection = useEditor((s) => s.selection);
  const measured = useEditor((s) => s.measured);
  const onNodesChange = useEditor((s) => s.onNodesChange);
  const onEdgesChange = useEditor((s) => s.onEdgesChange);
  const nodes = useMemo(
    () => toRfNodes(doc.nodes, doc.notes, selection, measured),
    [doc.nodes, doc.notes, selection, measured],
  );
  const edges = useMemo(() => toRfEdges(doc.edges, selection), [doc.edges, selection]);
  const { screenToFlowPosition } = useReactFlow();
  const dark = useDarkMode();
  // Frame once, and only a flow that has nodes: framing an empty flow would re-centre on the first drop.
  const [frameOnOpen] = useState(() => useEditor.getState().doc.nodes.length > 0);
  useEffect(() => {
    const t = setTimeout(() => void preloadLayout().catch(() => undefined), 1500);
    return () => clearTimeout(t);
  }, []);

  const isValidConnection = useCallback((c: RfConnection | Edge) => {
    const s = useEditor.getState();
    return explainConnection(s.doc, s.catalogue, toConnection(c)) === null;
  }, []);

  const onConnect = useCallback((c: RfConnection) => {
    const s = useEditor.getState();
    const conn = toConnection(c);
    const reason = explainConnection(s.doc, s.catalogue, conn);
    if (reason) s.notify("error", reason);
    else s.edit((doc) => connect(doc, s.catalogue, conn));
  }, []);

  // React Flow only reports "invalid"; say why, and accept a drop on a node's body as "its first input".
  const onConnectEnd = useCallback((event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
    if (state.isValid || !state.fromNode || !state.fromHandle) return;
    const point = "changedTouches" in event ? event.changedTouches[0] : event;
    if (!point) return;
    const under = document.elementFromPoint(point.clientX, point.clientY)?.closest(".react-flow__node");
    const targetId = state.toNode?.id ?? under?.getAttribute("data-id");
    if (!targetId || targetId.startsWith(NOTE_PREFIX)) return;
    const fromSource = state.fromHandle.type === "source";
    const other = state.toHandle;
    const conn: Connection = fromSource
      ? {
          source: state.fromNode.id,
          sourceHandle: state.fromHandle.id ?? null,
          target: targetId,
          targetHandle: other?.type === "target" ? (other.id ?? null) : null,
        }
      : {
          source: targetId,
          sourceHandle: other?.type === "source" ? (other.id ?? null) : null,
          target: state.fromNode.id,
          targetHandle: state.fromHandle.id ?? null,
        };
    const s = useEditor.getState();
    const reason = explainConnection(s.doc, s.catalogue, conn);
    if (reason) s.notify("error", reason);
    else s.edit((doc) => connect(doc, s.catalogue, conn));
  }, []);

  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(PALETTE_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = e.dataTransfer.getData(PALETTE_MIME);
      if (!type) return;
      e.preventDefault();
      const s = useEditor.getState();
      const entry = s.catalogue.get(type);
      if (!entry) return;
      const p = screenToFlowPosition({ x: e.clientX, y: e.clientY });
      let added = "";
      s.edit((doc) => {
        const r = addNode(doc, s.catalogue, entry, { x: p.x - DROP_OFFSET.x, y: p.y - DROP_OFFSET.y });
        added = r.id;
        return r.doc;
      });
      s.select({ nodes: new Set([added]), edges: new Set(), notes: new Set() });
    },
    [screenToFlowPosition],
  );

  const begin = useCallback(() => useEditor.getState().beginGesture(), []);
  const end = useCallback(() => useEditor.getState().endGesture(), []);

  return (
    <div className="relative h-full w-full">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        onDragOver={onDragOver}
        onDrop={onDrop}
        isValidConnection={isValidConnection}
        onNodeDragStart={begin}
        onNodeDragStop={end}
        onSelectionDragStart={begin}
        onSelectionDragStop={end}
        deleteKeyCode={null}
        colorMode={dark ? "dark" : "light"}
        onlyRenderVisibleElements
        minZoom={0.05}
        maxZoom={2}
        proOptions={{ hideAttribution: true }}
        defaultEdgeOptions={{ type: "deletable" }}
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1} />
        <MiniMap
          pannable
          zoomable
          ariaLabel="Mini map"
          nodeStrokeWidth={3}
          className="!rounded-lg !border !border-slate-200 dark:!border-slate-700"
        />
        <Controls aria-label="Zoom controls" />
        {frameOnOpen ? <OpeningViewport fallback={NODE_FALLBACK_SIZE} /> : null}
      </ReactFlow>
      {doc.nodes.length === 0 ? (
        <div className="pointer-events-none absolute inset-0 grid place-items-center">
          <div className="max-w-sm rounded-xl border border-dashed border-slate-300 bg-white/90 p-6 text-center shadow-sm dark:border-slate-700 dark:bg-slate-900/90">
            <h2 className="text-base font-semibold">Start with a trigger</h2>
            <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
              Every flow begins with one trigger: a webhook, an e-mail address, a schedule or a manual run.
              Drag one from the palette on the left, or click it to add it here. Then add steps after it and
              connect their dots.
            </p>
          </div>
        </div>
      ) : null}
    </div>
  );
}
