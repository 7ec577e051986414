"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { buttonClass, EmptyState, ErrorBox, PageHeader, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { Field, fieldErrors } from "../../signin/form-field";
import { NewKeyBox } from "./new-key-box";

type Scope = "read" | "write";

export default function ApiKeysPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.status.queryOptions());
  const isOwner = me.data?.user?.role === "owner";
  const canWrite = me.data?.user?.role !== "viewer";
  const [all, setAll] = useState(false);
  const keys = useQuery(trpc.apiKey.list.queryOptions({ all: isOwner && all }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiKey.list.queryKey() });
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [shown, setShown] = useState<{ name: string; key: string }>();
  const create = useMutation(
    trpc.apiKey.create.mutationOptions({
      onSuccess: (r) => {
        setShown({ name: r.apiKey.name, key: r.key });
        setName("");
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.apiKey.revoke.mutationOptions({ onSuccess: () => void refresh() }));
  const errors = fieldErrors(create.error);

  const toggle = (s: Scope) =>
    setScopes((cur) => (cur.includes(s) ? cur.filter((x) => x !== s) : [...cur, s]));
  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    setShown(undefined);
    create.mutate({ name, scopes });
  };

  return (
    <div>
      <PageHeader
        title="API keys"
        description={
          "Keys for scripts and other systems. Send one in the header Authorization: Bearer <key> or X-API-Key: <key>."
        }
      />
      <div className="max-w-4xl space-y-6 px-8 py-6">
        <form
          onSubmit={onCreate}
          className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          noValidate
        >
          <h2 className="text-base font-semibold">New key</h2>
          <div className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-start">
            <Field
              id="key-name"
              label="Name"
              placeholder="e.g. deploy script"
              value={name}
              error={errors.name}
              onChange={(e) => setName(e.target.value)}
            />
            <fieldset className="space-y-1">
              <legend className="text-sm font-medium">Scopes</legend>
              <div className="flex gap-4 pt-2 text-sm">
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={scopes.includes("read")} onChange={() => toggle("read")} />{" "}
                  read
                </label>
                <label
                  className="flex items-center gap-2"
                  title={canWrite ? undefined : "viewers can only create read keys"}
                >
                  <input
                    type="checkbox"
                    checked={scopes.includes("write")}
                    disabled={!canWrite}
                    onChange={() => toggle("write")}
                  />{" "}
                  write
                </label>
              </div>
              {errors.scopes ? (
                <p role="alert" className="text-sm text-red-700 dark:text-red-300">
                  {errors.scopes}
                </p>
              ) : null}
            </fieldset>
          </div>
          {create.error && Object.keys(errors).length === 0 ? (
            <ErrorBox message={create.error.message} />
          ) : null}
          <button type="submit" className={buttonClass} disabled={create.isPending || !name.trim()}>
            Create key
          </button>
          {shown ? <NewKeyBox name={shown.name} value={shown.key} /> : null}
        </form>

        {isOwner ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Show everyone’s
            keys
          </label>
        ) : null}
        {keys.error ? <ErrorBox message={keys.error.message} /> : null}
        {revoke.error ? <ErrorBox message={revoke.error.message} /> : null}
        {keys.data && keys.data.length === 0 ? (
          <EmptyState title="No API keys yet">Create one above.</EmptyState>
        ) : null}
        {keys.data && keys.data.length > 0 ? (
          <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
            {keys.data.map((k) => (
              <li
                key={k.id}
                className="flex items-center justify-between gap-4 px-5 py-4"
                data-testid="api-key-row"
              >
                <div className="min-w-0">
                  <p className="font-medium">
                    {k.name} <span className="font-mono text-sm text-slate-500">sy_{k.prefix}_…</span>
                  </p>
                  <p className="text-sm text-slate-500 dark:text-slate-400">
                    {k.scopes.join(" + ")}
                    {all ? ` · ${k.userEmail}` : ""} · created {new Date(k.createdAt).toLocaleString()} ·{" "}
                    {k.lastUsedAt ? `last used ${new Date(k.lastUsedAt).toLocaleString()}` : "never used"}
                  </p>
                </div>
                {k.revokedAt ? (
                  <span className="text-sm text-slate-500">
                    revoked {new Date(k.revokedAt).toLocaleDateString()}
                  </span>
                ) : (
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => {
                      if (confirm(`Revoke “${k.name}”? Anything using it stops working at once.`))
                        revoke.mutate({ id: k.id });
                    }}
                  >
                    Revoke
                  </button>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}
