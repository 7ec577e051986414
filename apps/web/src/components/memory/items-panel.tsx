"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass, EmptyState, ErrorBox, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { draftOf, emptyDraft, type ItemDraft, ItemForm, tagsOf } from "./item-form";
import { dangerButtonClass, inputClass, ItemMeta, KIND_LABELS, KindBadge, panelClass } from "./ui";

const PAGE = 25;
type Kind = keyof typeof KIND_LABELS;

/** Every item, newest first, with filters, paging and add / edit / delete for owners and editors. */
export function ItemsPanel({ namespaces, canWrite }: { namespaces: string[]; canWrite: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [namespace, setNamespace] = useState("");
  const [kind, setKind] = useState<Kind | "">("");
  const [thread, setThread] = useState("");
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const filter = {
    namespace: namespace || undefined,
    kind: kind || undefined,
    thread: namespace && thread ? thread : undefined,
    limit: PAGE,
    offset,
  };
  const list = useQuery(trpc.memory.list.queryOptions(filter));
  const threads = useQuery({
    ...trpc.memory.threads.queryOptions({ namespace: namespace || "global" }),
    enabled: !!namespace,
  });
  // Any write can change counts, namespaces, search results: refresh everything memory shows.
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.memory.pathKey() });
  const done = () => {
    setEditing(null);
    void refresh();
  };
  const add = useMutation(trpc.memory.add.mutationOptions({ onSuccess: done }));
  const edit = useMutation(trpc.memory.edit.mutationOptions({ onSuccess: done }));
  const del = useMutation(trpc.memory.delete.mutationOptions({ onSuccess: () => void refresh() }));

  const toInput = (d: ItemDraft) => ({
    namespace: d.namespace,
    kind: d.kind,
    key: d.key,
    content: d.content,
    tags: tagsOf(d.tags),
  });
  const filterChanged = (f: () => void) => {
    f();
    setOffset(0);
  };
  const total = list.data?.total ?? 0;
  const filtered = !!(namespace || kind || thread);

  return (
    <section className={panelClass} aria-labelledby="memory-items-heading">
      <div className="flex items-center justify-between">
        <h2 id="memory-items-heading" className="text-base font-semibold">
          Items
        </h2>
        {canWrite && editing !== "new" ? (
          <button type="button" className={buttonClass} onClick={() => setEditing("new")}>
            Add item
          </button>
        ) : null}
      </div>
      {editing === "new" ? (
        <ItemForm
          title="New item"
          submitLabel="Add"
          initial={emptyDraft(namespace || "global")}
          pending={add.isPending}
          error={add.error}
          onCancel={() => setEditing(null)}
          onSubmit={(d) => add.mutate({ ...toInput(d), thread: d.thread.trim() || undefined })}
        />
      ) : null}
      <div className="flex flex-wrap gap-3 text-sm">
        <select
          aria-label="Filter by namespace"
          className={`${inputClass} w-auto`}
          value={namespace}
          onChange={(e) =>
            filterChanged(() => {
              setNamespace(e.target.value);
              setThread("");
            })
          }
        >
          <option value="">All namespaces</option>
          {namespaces.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
        <select
          aria-label="Filter by kind"
          className={`${inputClass} w-auto`}
          value={kind}
          onChange={(e) => filterChanged(() => setKind(e.target.value as Kind | ""))}
        >
          <option value="">All kinds</option>
          {Object.entries(KIND_LABELS).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by thread"
          className={`${inputClass} w-auto`}
          value={thread}
          disabled={!namespace}
          title={namespace ? undefined : "choose a namespace first"}
          onChange={(e) => filterChanged(() => setThread(e.target.value))}
        >
          <option value="">All threads</option>
          {(threads.data ?? []).map((t) => (
            <option key={t.thread} value={t.thread}>
              {t.thread} ({t.items})
            </option>
          ))}
        </select>
      </div>
      {list.error ? <ErrorBox message={list.error.message} /> : null}
      {del.error ? <ErrorBox message={del.error.message} /> : null}
      {list.data && total === 0 ? (
        <EmptyState title={filtered ? "No items match these filters" : "Memory is empty"}>
          {filtered
            ? "Clear a filter to see more."
            : "Add an item above, or import notes, transcripts or contacts. Agents read memory; they never write it."}
        </EmptyState>
      ) : null}
      {list.data && list.data.items.length > 0 ? (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Memory items">
          {list.data.items.map((item) =>
            editing === item.id ? (
              <li key={item.id} className="py-3">
                <ItemForm
                  title={`Edit ${item.key}`}
                  submitLabel="Save"
                  initial={draftOf(item)}
                  pending={edit.isPending}
                  error={edit.error}
                  onCancel={() => setEditing(null)}
                  onSubmit={(d) =>
                    edit.mutate({ id: item.id, patch: { ...toInput(d), thread: d.thread.trim() || null } })
                  }
                />
              </li>
            ) : (
              <li
                key={item.id}
                className="flex items-start justify-between gap-4 py-3"
                data-testid="memory-item"
              >
                <div className="min-w-0 space-y-1">
                  <p className="flex items-center gap-2 font-medium">
                    <KindBadge kind={item.kind} /> <span data-testid="memory-item-key">{item.key}</span>
                  </p>
                  <p className="line-clamp-2 whitespace-pre-wrap text-sm text-slate-600 dark:text-slate-300">
                    {item.content}
                  </p>
                  <ItemMeta item={item}>
                    <span>updated {new Date(item.updatedAt).toLocaleString()}</span>
                  </ItemMeta>
                </div>
                {canWrite ? (
                  <div className="flex shrink-0 gap-2">
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      aria-label={`Edit ${item.key}`}
                      onClick={() => {
                        edit.reset();
                        setEditing(item.id);
                      }}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className={dangerButtonClass}
                      aria-label={`Delete ${item.key}`}
                      disabled={del.isPending}
                      onClick={() => {
                        if (
                          confirm(
                            `Delete “${item.key}”? Agents will no longer find it. This cannot be undone.`,
                          )
                        )
                          del.mutate({ id: item.id });
                      }}
                    >
                      Delete
                    </button>
                  </div>
                ) : null}
              </li>
            ),
          )}
        </ul>
      ) : null}
      {total > PAGE ? (
        <nav aria-label="Pages" className="flex items-center justify-between text-sm">
          <span>
            {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
          </span>
          <span className="flex gap-2">
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - PAGE))}
            >
              Previous
            </button>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={offset + PAGE >= total}
              onClick={() => setOffset(offset + PAGE)}
            >
              Next
            </button>
          </span>
        </nav>
      ) : null}
    </section>
  );
}
