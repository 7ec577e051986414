"use client";

import { useMemo, useState } from "react";
import { renameNodeId, updateNode } from "./doc-ops";
import { FormContext, type FormContextValue } from "./form/form-context";
import { ObjectField } from "./form/CompositeFields";
import { FlowPanel, SelectionPanel } from "./FlowPanel";
import { NodeSettings } from "./NodeSettings";
import { NodeRunData, PinnedData } from "./RunData";
import { StepRunButtons } from "./StepRunButtons";
import { categoryTone } from "./categories";
import { NodeIcon } from "./NodeIcon";
import { breakCoalescing, useEditor } from "./store";
import { TriggerInfo } from "./TriggerInfo";
import type { FlowNode } from "@switchyard/contracts";
import { shortMessage } from "./types";

export function ConfigPanel() {
  const selection = useEditor((s) => s.selection);
  const nodes = useEditor((s) => s.doc.nodes);
  const count = selection.nodes.size + selection.notes.size + selection.edges.size;
  const selectedId = selection.nodes.size === 1 && count === 1 ? [...selection.nodes][0] : undefined;
  const node = selectedId ? nodes.find((n) => n.id === selectedId) : undefined;
  return (
    <aside
      aria-label="Configuration"
      className="flex w-96 shrink-0 flex-col overflow-y-auto border-l border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      {node ? <NodeConfig key={node.id} node={node} /> : count > 0 ? <SelectionPanel /> : <FlowPanel />}
    </aside>
  );
}

function NodeConfig({ node }: { node: FlowNode }) {
  const entry = useEditor((s) => s.catalogue.get(node.type));
  const problems = useEditor((s) => s.problems);
  const nodeIds = useEditor((s) => s.doc.nodes).map((n) => n.id);
  const nodeIdsKey = nodeIds.join(",");
  const flowId = useEditor((s) => s.flowId);
  const mine = useMemo(() => problems.filter((p) => p.nodeId === node.id), [problems, node.id]);

  const form: FormContextValue = useMemo(() => {
    const byField = new Map<string, string[]>();
    for (const p of mine)
      if (p.field) byField.set(p.field, [...(byField.get(p.field) ?? []), shortMessage(p)]);
    return {
      problems: byField,
      nodeIds: nodeIdsKey.split(",").filter(Boolean),
      idPrefix: `cfg-${node.id}`,
      onFieldBlur: breakCoalescing,
      ...(flowId ? { help: { flowId, nodeId: node.id } } : {}),
    };
  }, [mine, nodeIdsKey, node.id, flowId]);

  const shownOnFields = new Set(entry ? Object.keys(entry.configSchema.properties ?? {}) : []);
  const general = mine.filter(
    (p) => !p.field || ![...shownOnFields].some((k) => p.field === k || p.field?.startsWith(`${k}.`)),
  );

  const edit = (patch: (n: FlowNode) => FlowNode, key: string) =>
    useEditor.getState().edit((doc) => updateNode(doc, node.id, patch), `${node.id}:${key}`);

  return (
    <div className="space-y-5 p-4" data-testid="node-config">
      <header className="flex items-start gap-3">
        <span
          className={`grid h-9 w-9 shrink-0 place-items-center rounded-lg ${categoryTone(entry?.category ?? "")}`}
        >
          <NodeIcon name={entry?.icon ?? ""} className="h-5 w-5" />
        </span>
        <div className="min-w-0">
          <h2 className="font-semibold">{entry?.title ?? node.type}</h2>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {entry?.description ?? "This node type is not installed on this server."}
          </p>
        </div>
      </header>

      <div className="grid grid-cols-2 gap-3">
        <label className="col-span-2 space-y-1 text-xs font-medium text-slate-700 dark:text-slate-300">
          Name
          <input
            aria-label="Node name"
            value={node.name}
            onChange={(e) => edit((n) => ({ ...n, name: e.target.value }), "name")}
            onBlur={breakCoalescing}
            className="block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-normal dark:border-slate-700 dark:bg-slate-800"
          />
        </label>
        <NodeIdField id={node.id} />
      </div>

      {general.length ? (
        <ul
          data-testid="node-problem-list"
          className="space-y-1 rounded-lg border border-red-200 bg-red-50 p-3 text-xs text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-300"
        >
          {general.map((p) => (
            <li key={`${p.code}:${p.message}`}>{p.message}</li>
          ))}
        </ul>
      ) : null}

      <TriggerInfo node={node} />

      {entry && entry.kind !== "trigger" ? <StepRunButtons nodeId={node.id} /> : null}

      <PinnedData nodeId={node.id} />
      <NodeRunData nodeId={node.id} />

      {entry ? (
        <section aria-label="Settings of this node" className="space-y-3">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Configuration</h3>
          {Object.keys(entry.configSchema.properties ?? {}).length === 0 ? (
            <p className="text-sm text-slate-500">Nothing to configure.</p>
          ) : (
            <FormContext.Provider value={form}>
              <ObjectField
                name="config"
                schema={entry.configSchema}
                value={node.config}
                onChange={(v) =>
                  edit((n) => ({ ...n, config: (v as Record<string, unknown>) ?? {} }), "config")
                }
                path=""
                required
              />
            </FormContext.Provider>
          )}
        </section>
      ) : null}

      <NodeSettings node={node} isTrigger={entry?.kind === "trigger"} edit={edit} />
    </div>
  );
}

function NodeIdField({ id }: { id: string }) {
  const [text, setText] = useState(id);
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    if (text === id) return setError(null);
    const s = useEditor.getState();
    const result = renameNodeId(s.doc, id, text);
    if (typeof result === "string") return setError(result);
    setError(null);
    s.edit(() => result);
    s.select({ nodes: new Set([text]) });
  };
  return (
    <label className="col-span-2 space-y-1 text-xs font-medium text-slate-700 dark:text-slate-300">
      Id <span className="font-normal text-slate-400">(used in expressions as nodes.{id})</span>
      <input
        aria-label="Node id"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
        className="block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 font-mono text-xs font-normal dark:border-slate-700 dark:bg-slate-800"
      />
      {error ? <span className="block font-normal text-red-600">{error}</span> : null}
    </label>
  );
}
