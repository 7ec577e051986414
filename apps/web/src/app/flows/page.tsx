"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type ChangeEvent, type FormEvent, useRef, useState } from "react";
import { buttonClass, EmptyState, ErrorBox, PageHeader, secondaryButtonClass } from "@/components/page";
import { newFlowDefinition } from "@/lib/new-flow";
import { useTRPC } from "@/trpc/client";
import { N8nImport } from "@/components/flows/N8nImport";
import { TemplatePicker } from "@/components/flows/TemplatePicker";
import { FlowHealth } from "./flow-health";

/** What "Export JSON" writes and "Import JSON" reads: the flow file format plus its name. */
interface FlowFile {
  name?: string;
  description?: string;
  definition?: Record<string, unknown>;
  nodes?: unknown[];
}

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
}

export default function FlowsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [name, setName] = useState("");
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [n8nOpen, setN8nOpen] = useState(false);
  const [importNotice, setImportNotice] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const flows = useQuery(trpc.flow.list.queryOptions({ search: search || undefined }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.flow.list.queryKey() });
  const create = useMutation(
    trpc.flow.create.mutationOptions({
      onSuccess: () => {
        setName("");
        void invalidate();
      },
    }),
  );
  const remove = useMutation(trpc.flow.delete.mutationOptions({ onSuccess: () => void invalidate() }));
  const setActive = useMutation(trpc.flow.setActive.mutationOptions({ onSuccess: () => void invalidate() }));
  const rename = useMutation(
    trpc.flow.rename.mutationOptions({
      onSuccess: () => {
        setRenaming(null);
        void invalidate();
      },
    }),
  );

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate({ name: name.trim(), definition: newFlowDefinition() });
  };
  const definitionOf = async (id: string) =>
    (await queryClient.fetchQuery(trpc.flow.get.queryOptions({ id }))).version.definition as Record<
      string,
      unknown
    >;
  const exportFlow = async (f: { id: string; name: string; description: string }) => {
    const file: FlowFile = {
      name: f.name,
      description: f.description || undefined,
      definition: await definitionOf(f.id),
    };
    download(
      `${f.name.replace(/[^\w.-]+/g, "-").toLowerCase() || "flow"}.switchyard.json`,
      JSON.stringify(file, null, 2),
    );
  };
  const duplicate = async (f: { id: string; name: string; description: string }) =>
    create.mutate({
      name: `${f.name} (copy)`.slice(0, 200),
      description: f.description || undefined,
      definition: await definitionOf(f.id),
    });
  const onImport = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    setImportError(null);
    setImportNotice(null);
    try {
      const parsed = JSON.parse(await file.text()) as FlowFile;
      // Accept both our export ({ name, definition }) and a bare flow definition ({ nodes, edges, … }).
      const definition =
        parsed.definition ?? (Array.isArray(parsed.nodes) ? (parsed as Record<string, unknown>) : undefined);
      if (!definition) throw new Error("the file has neither a definition nor nodes");
      const base = parsed.name ?? file.name.replace(/(\.switchyard)?\.json$/i, "");
      const flowName = base.trim() || "Imported flow";
      create.mutate(
        { name: flowName, description: parsed.description, definition },
        {
          // A draft is saved even with problems (activation refuses it): say what they are right away.
          onSuccess: ({ problems }) =>
            setImportNotice(
              problems.length
                ? `Imported “${flowName}” as a draft with ${problems.length} problem${problems.length > 1 ? "s" : ""} to fix before it can be activated: ${problems
                    .slice(0, 3)
                    .map((p) => `${p.field ?? p.nodeId ?? "flow"}: ${p.message}`)
                    .join("; ")}`
                : `Imported “${flowName}”.`,
            ),
        },
      );
    } catch (err) {
      setImportError(`Could not import ${file.name}: ${(err as Error).message}`);
    }
  };

  return (
    <div>
      <PageHeader
        title="Flows"
        description="Triggers and steps that run on their own once active."
        actions={
          <>
            <input
              ref={fileInput}
              type="file"
              accept="application/json,.json"
              className="hidden"
              aria-label="Flow file to import"
              onChange={onImport}
            />
            <button type="button" className={secondaryButtonClass} onClick={() => fileInput.current?.click()}>
              Import JSON
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              aria-expanded={n8nOpen}
              onClick={() => setN8nOpen((o) => !o)}
            >
              Import from n8n
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              aria-expanded={templatesOpen}
              onClick={() => setTemplatesOpen((o) => !o)}
            >
              Start from a template
            </button>
            <form onSubmit={onCreate} className="flex gap-2">
              <input
                aria-label="New flow name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder="New flow name"
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-800"
              />
              <button type="submit" className={buttonClass} disabled={!name.trim() || create.isPending}>
                Create flow
              </button>
            </form>
          </>
        }
      />
      <div className="space-y-4 px-8 py-6">
        {templatesOpen ? <TemplatePicker onClose={() => setTemplatesOpen(false)} /> : null}
        {n8nOpen ? <N8nImport onClose={() => setN8nOpen(false)} /> : null}
        {create.error ? <ErrorBox message={create.error.message} /> : null}
        {importError ? <ErrorBox message={importError} /> : null}
        {importNotice ? (
          <p role="status" data-testid="import-notice" className="text-sm text-slate-600 dark:text-slate-300">
            {importNotice}
          </p>
        ) : null}
        {rename.error ? <ErrorBox message={rename.error.message} /> : null}
        <input
          type="search"
          aria-label="Search flows"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search flows…"
          className="w-72 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-800"
        />
        {flows.error ? <ErrorBox message={flows.error.message} /> : null}
        {flows.data && flows.data.length === 0 ? (
          <EmptyState title={search ? "No flow matches your search" : "No flows yet"}>
            {search
              ? "Try another name."
              : "Name your first flow above and press Create flow, import a flow file, or start from a template."}
          </EmptyState>
        ) : null}
        {flows.data && flows.data.length > 0 ? (
          <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {flows.data.map((f) => (
              <li
                key={f.id}
                className="flex items-center justify-between gap-4 px-5 py-4"
                data-testid="flow-row"
              >
                <div className="min-w-0">
                  {renaming?.id === f.id ? (
                    <form
                      className="flex gap-2"
                      onSubmit={(e) => {
                        e.preventDefault();
                        if (renaming.name.trim()) rename.mutate({ id: f.id, name: renaming.name.trim() });
                      }}
                    >
                      <input
                        aria-label="Flow name"
                        value={renaming.name}
                        onChange={(e) => setRenaming({ id: f.id, name: e.target.value })}
                        onKeyDown={(e) => e.key === "Escape" && setRenaming(null)}
                        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800"
                      />
                      <button type="submit" className={secondaryButtonClass} disabled={rename.isPending}>
                        Save name
                      </button>
                    </form>
                  ) : (
                    <Link href={`/flows/${f.id}`} className="font-medium hover:underline">
                      {f.name}
                    </Link>
                  )}
                  <p className="truncate text-sm text-slate-500 dark:text-slate-400">
                    v{f.currentVersion} · updated {new Date(f.updatedAt).toLocaleString()}
                    {f.description ? ` · ${f.description}` : ""}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  {f.active ? <FlowHealth flowId={f.id} /> : null}
                  <label className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={f.active}
                      onChange={(e) => setActive.mutate({ id: f.id, active: e.target.checked })}
                    />
                    {f.active ? "Active" : "Inactive"}
                  </label>
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => setRenaming({ id: f.id, name: f.name })}
                  >
                    Rename
                  </button>
                  <button type="button" className={secondaryButtonClass} onClick={() => void duplicate(f)}>
                    Duplicate
                  </button>
                  <button type="button" className={secondaryButtonClass} onClick={() => void exportFlow(f)}>
                    Export JSON
                  </button>
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => {
                      if (confirm(`Delete “${f.name}” and all its versions and runs?`))
                        remove.mutate({ id: f.id });
                    }}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
        {setActive.error ? <ErrorBox message={setActive.error.message} /> : null}
      </div>
    </div>
  );
}
