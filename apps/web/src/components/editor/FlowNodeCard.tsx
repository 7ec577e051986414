"use client";

import { Handle, type NodeProps, Position } from "@xyflow/react";
import { memo, useMemo } from "react";
import { inputsOf, outputsOf } from "./doc-ops";
import { categoryTone } from "./categories";
import { NodeIcon } from "./NodeIcon";
import type { FlowRfNode } from "./rf-adapter";
import { useEditor } from "./store";
import type { Problem } from "@switchyard/contracts";
import { type NodeRunStatus, shortMessage } from "./types";

const statusStyle: Record<NodeRunStatus, string> = {
  pending: "bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200",
  running: "bg-sky-100 text-sky-700 dark:bg-sky-900 dark:text-sky-200 animate-pulse",
  waiting: "bg-amber-100 text-amber-700 dark:bg-amber-900 dark:text-amber-200",
  succeeded: "bg-emerald-100 text-emerald-700 dark:bg-emerald-900 dark:text-emerald-200",
  failed: "bg-red-100 text-red-700 dark:bg-red-900 dark:text-red-200",
  skipped: "bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400",
};

const HANDLE_GAP = 24;

/** On the node, say which field is wrong but not which node (it is this one). */
function nodeProblem(p: Problem | undefined): string {
  if (!p) return "";
  return p.field ? `${p.field}: ${shortMessage(p)}` : shortMessage(p);
}

/** A flow node on the canvas: type icon, name, run status, problems and one handle per named port. */
export const FlowNodeCard = memo(function FlowNodeCard({ data, selected }: NodeProps<FlowRfNode>) {
  const node = data.node;
  const entry = useEditor((s) => s.catalogue.get(node.type));
  const status = useEditor((s) => s.nodeStatus[node.id]);
  const pinned = useEditor((s) => s.doc.pinData?.[node.id] !== undefined);
  const allProblems = useEditor((s) => s.problems);
  const problems = useMemo(() => allProblems.filter((p) => p.nodeId === node.id), [allProblems, node.id]);
  const inputs = inputsOf(entry);
  const outputs = outputsOf(node, entry);
  const rows = Math.max(inputs.length, outputs.length, 1);
  const isTrigger = entry?.kind === "trigger";

  return (
    <div
      data-testid="flow-node"
      data-problems={problems.length}
      title={problems.map((p) => p.message).join("\n") || undefined}
      className={`w-60 rounded-xl border bg-white shadow-sm transition-shadow dark:bg-slate-900 ${
        selected
          ? "border-brand-500 ring-2 ring-brand-500/30"
          : problems.length
            ? "border-red-400 dark:border-red-700"
            : "border-slate-200 dark:border-slate-700"
      } ${node.disabled ? "opacity-50" : ""} ${isTrigger ? "rounded-l-3xl" : ""}`}
    >
      <div className="flex items-center gap-2 px-3 pt-2.5">
        <span
          className={`grid h-7 w-7 shrink-0 place-items-center rounded-md ${categoryTone(entry?.category ?? "")}`}
        >
          <NodeIcon name={entry?.icon ?? ""} />
        </span>
        <div className="min-w-0 flex-1">
          <div className="truncate text-sm font-medium" data-testid="node-name">
            {node.name || node.id}
          </div>
          <div className="truncate text-[11px] text-slate-500 dark:text-slate-400">
            {entry ? entry.title : `Unknown type ${node.type}`} · {node.id}
          </div>
        </div>
        {pinned ? (
          <span
            data-testid="node-pinned"
            title="Output pinned: editor runs reuse it instead of executing this node"
            className="rounded-full bg-violet-100 px-1.5 py-0.5 text-[10px] font-medium text-violet-700 dark:bg-violet-900 dark:text-violet-200"
          >
            📌 pinned
          </span>
        ) : null}
        {status ? (
          <span
            data-testid="node-status"
            className={`rounded-full px-1.5 py-0.5 text-[10px] font-medium ${statusStyle[status]}`}
          >
            {status}
          </span>
        ) : null}
      </div>
      <div className="relative px-3 pb-2.5 pt-1" style={{ minHeight: rows * HANDLE_GAP }}>
        {problems.length ? (
          <div
            data-testid="node-problems"
            className="flex items-start gap-1 text-[11px] leading-snug text-red-600 dark:text-red-400"
          >
            <span aria-hidden="true">●</span>
            <span className="line-clamp-2">
              {problems.length === 1
                ? nodeProblem(problems[0])
                : `${problems.length} problems · ${nodeProblem(problems[0])}`}
            </span>
          </div>
        ) : node.disabled ? (
          <div className="text-[11px] text-slate-500">Disabled: passes items through untouched</div>
        ) : null}
        {inputs.map((port, i) => (
          <PortHandle key={`in-${port}`} type="target" port={port} index={i} labelled={inputs.length > 1} />
        ))}
        {outputs.map((port, i) => (
          <PortHandle
            key={`out-${port}`}
            type="source"
            port={port}
            index={i}
            labelled={outputs.length > 1 || port !== "main"}
          />
        ))}
      </div>
    </div>
  );
});

function PortHandle({
  type,
  port,
  index,
  labelled,
}: {
  type: "source" | "target";
  port: string;
  index: number;
  labelled: boolean;
}) {
  const top = 4 + index * HANDLE_GAP + HANDLE_GAP / 2;
  const isSource = type === "source";
  return (
    <>
      <Handle
        type={type}
        id={port}
        position={isSource ? Position.Right : Position.Left}
        style={{ top }}
        className={`!h-3 !w-3 !border-2 !border-white dark:!border-slate-900 ${port === "error" ? "!bg-red-500" : "!bg-slate-400 hover:!bg-brand-500"}`}
        title={`${isSource ? "Output" : "Input"} “${port}”`}
      />
      {labelled ? (
        <span
          className={`pointer-events-none absolute text-[10px] font-medium text-slate-500 dark:text-slate-400 ${isSource ? "right-2" : "left-2"}`}
          style={{ top: top - 7 }}
        >
          {port}
        </span>
      ) : null}
    </>
  );
}
