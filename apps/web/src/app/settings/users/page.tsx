"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { buttonClass, ErrorBox, PageHeader, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { Field, fieldErrors, inputClass } from "../../signin/form-field";

const roles = [
  { value: "viewer", label: "Viewer", help: "reads flows and runs" },
  { value: "editor", label: "Editor", help: "builds and runs flows" },
  { value: "owner", label: "Owner", help: "also manages users, keys and settings" },
] as const;
type Role = (typeof roles)[number]["value"];

const emptyForm = { email: "", name: "", password: "", role: "editor" as Role };

export default function UsersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.status.queryOptions());
  const users = useQuery(trpc.user.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.user.list.queryKey() });
  const [form, setForm] = useState(emptyForm);
  const create = useMutation(
    trpc.user.create.mutationOptions({
      onSuccess: () => {
        setForm(emptyForm);
        void refresh();
      },
    }),
  );
  const setRole = useMutation(trpc.user.setRole.mutationOptions({ onSettled: () => void refresh() }));
  const remove = useMutation(trpc.user.delete.mutationOptions({ onSuccess: () => void refresh() }));
  const errors = fieldErrors(create.error);
  const rowError = setRole.error?.message ?? remove.error?.message;

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(form);
  };

  return (
    <div>
      <PageHeader title="Users" description="People who can sign in, and what each of them may do." />
      <div className="grid gap-8 px-8 py-6 lg:grid-cols-[1fr_22rem]">
        <section aria-label="Users" className="space-y-3">
          {users.error ? <ErrorBox message={users.error.message} /> : null}
          {rowError ? <ErrorBox message={rowError} /> : null}
          {users.data ? (
            <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
              {users.data.map((u) => (
                <li
                  key={u.id}
                  className="flex items-center justify-between gap-4 px-5 py-4"
                  data-testid="user-row"
                >
                  <div className="min-w-0">
                    <p className="truncate font-medium">{u.name || u.email}</p>
                    <p className="truncate text-sm text-slate-500 dark:text-slate-400">
                      {u.name ? `${u.email} · ` : ""}since {new Date(u.createdAt).toLocaleDateString()}
                      {u.id === me.data?.user?.id ? " · you" : ""}
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as Role })}
                      className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-800"
                    >
                      {roles.map((r) => (
                        <option key={r.value} value={r.value}>
                          {r.label}
                        </option>
                      ))}
                    </select>
                    {u.id !== me.data?.user?.id ? (
                      <button
                        type="button"
                        className={secondaryButtonClass}
                        onClick={() => {
                          if (confirm(`Delete ${u.email}? Their sessions and API keys stop working at once.`))
                            remove.mutate({ id: u.id });
                        }}
                      >
                        Delete
                      </button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          ) : null}
        </section>

        <section
          aria-labelledby="add-user"
          className="h-fit rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 id="add-user" className="text-base font-semibold">
            Add a user
          </h2>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            Give them the address and first password yourself; they can change the password after signing in.
          </p>
          <form onSubmit={onCreate} className="mt-4 space-y-4" noValidate>
            <Field
              id="new-email"
              label="E-mail"
              type="email"
              autoComplete="off"
              value={form.email}
              error={errors.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
            />
            <Field
              id="new-name"
              label="Name (optional)"
              autoComplete="off"
              value={form.name}
              error={errors.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
            />
            <Field
              id="new-password"
              label="First password"
              type="password"
              autoComplete="new-password"
              value={form.password}
              error={errors.password}
              hint="At least 12 characters."
              onChange={(e) => setForm({ ...form, password: e.target.value })}
            />
            <div className="space-y-1">
              <label htmlFor="new-role" className="block text-sm font-medium">
                Role
              </label>
              <select
                id="new-role"
                value={form.role}
                onChange={(e) => setForm({ ...form, role: e.target.value as Role })}
                className={inputClass}
              >
                {roles.map((r) => (
                  <option key={r.value} value={r.value}>
                    {r.label} — {r.help}
                  </option>
                ))}
              </select>
            </div>
            {create.error && Object.keys(errors).length === 0 ? (
              <ErrorBox message={create.error.message} />
            ) : null}
            <button
              type="submit"
              className={buttonClass}
              disabled={create.isPending || !form.email || !form.password}
            >
              Add user
            </button>
          </form>
        </section>
      </div>
    </div>
  );
}
