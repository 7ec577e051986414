"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState, ErrorBox, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { CredentialHosts } from "./credential-hosts";
import { dangerButtonClass } from "./ui";

/** Stored credentials: name, type, which fields hold a value and where it may be sent. Values are never fetched. */
export function CredentialList({
  canDelete,
  canEditHosts,
}: {
  canDelete: boolean;
  /** Only the owner may change where a credential is sent (see credential.setAllowedHosts). */
  canEditHosts: boolean;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const list = useQuery(trpc.credential.list.queryOptions());
  const [confirming, setConfirming] = useState<string>();
  const remove = useMutation(
    trpc.credential.delete.mutationOptions({
      onSuccess: () => {
        setConfirming(undefined);
        void qc.invalidateQueries({ queryKey: trpc.credential.list.queryKey() });
      },
    }),
  );

  if (list.error) return <ErrorBox message={list.error.message} />;
  if (list.data?.length === 0)
    return (
      <EmptyState title="No credentials yet">
        Save one above; nodes and the LLM provider pick them by name.
      </EmptyState>
    );
  return (
    <div className="space-y-3">
      {remove.error ? <ErrorBox message={remove.error.message} /> : null}
      <ul
        aria-label="Credentials"
        className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
      >
        {list.data?.map((c) => (
          <li
            key={c.id}
            data-testid="credential-row"
            className="flex flex-wrap items-center justify-between gap-4 px-5 py-4"
          >
            <div className="min-w-0">
              <p className="font-medium" data-testid="credential-name">
                {c.name}
              </p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                {c.label} · updated {new Date(c.updatedAt).toLocaleString()}
              </p>
              <p className="mt-1 flex flex-wrap gap-1 text-xs">
                {c.fields.map((f) => (
                  <span
                    key={f}
                    data-testid="credential-field"
                    className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-600 dark:bg-slate-800 dark:text-slate-300"
                  >
                    {f}: set
                  </span>
                ))}
              </p>
              {"allowedHosts" in c ? (
                <CredentialHosts
                  id={c.id}
                  name={c.name}
                  hosts={c.allowedHosts ?? null}
                  canEdit={canEditHosts}
                />
              ) : null}
            </div>
            {canDelete ? (
              confirming === c.id ? (
                <fieldset
                  className="flex items-center gap-2 text-sm"
                  aria-label={`Confirm deleting ${c.name}`}
                >
                  <span>Delete “{c.name}”? Flows that use it will fail.</span>
                  <button
                    type="button"
                    className={dangerButtonClass}
                    disabled={remove.isPending}
                    onClick={() => remove.mutate({ id: c.id })}
                  >
                    Delete
                  </button>
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => setConfirming(undefined)}
                  >
                    Cancel
                  </button>
                </fieldset>
              ) : (
                <button
                  type="button"
                  className={dangerButtonClass}
                  aria-label={`Delete ${c.name}`}
                  onClick={() => {
                    remove.reset();
                    setConfirming(c.id);
                  }}
                >
                  Delete
                </button>
              )
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
