"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { buttonClass, EmptyState, ErrorBox, PageHeader, secondaryButtonClass } from "@/components/page";
import { newFlowDefinition } from "@/lib/new-flow";
import { useTRPC } from "@/trpc/client";

export default function FlowsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [name, setName] = useState("");
  const flows = useQuery(trpc.flow.list.queryOptions({ search: search || undefined }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.flow.list.queryKey() });
  const create = useMutation(trpc.flow.create.mutationOptions({ onSuccess: () => { setName(""); void invalidate(); } }));
  const remove = useMutation(trpc.flow.delete.mutationOptions({ onSuccess: () => void invalidate() }));
  const setActive = useMutation(trpc.flow.setActive.mutationOptions({ onSuccess: () => void invalidate() }));

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate({ name: name.trim(), definition: newFlowDefinition() });
  };

  return (
    <div>
      <PageHeader
        title="Flows"
        description="Triggers and steps that run on their own once active."
        actions={
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
        }
      />
      <div className="space-y-4 px-8 py-6">
        {create.error ? <ErrorBox message={create.error.message} /> : null}
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
            {search ? "Try another name." : "Name your first flow above and press Create flow."}
          </EmptyState>
        ) : null}
        {flows.data && flows.data.length > 0 ? (
          <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {flows.data.map((f) => (
              <li key={f.id} className="flex items-center justify-between gap-4 px-5 py-4" data-testid="flow-row">
                <div className="min-w-0">
                  <Link href={`/flows/${f.id}`} className="font-medium hover:underline">
                    {f.name}
                  </Link>
                  <p className="truncate text-sm text-slate-500 dark:text-slate-400">
                    v{f.currentVersion} · updated {new Date(f.updatedAt).toLocaleString()}
                    {f.description ? ` · ${f.description}` : ""}
                  </p>
                </div>
                <div className="flex items-center gap-2">
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
                    onClick={() => {
                      if (confirm(`Delete “${f.name}” and all its versions and runs?`)) remove.mutate({ id: f.id });
                    }}
                  >
                    Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
