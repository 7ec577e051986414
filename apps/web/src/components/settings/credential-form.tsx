"use client";

import type { CredentialType } from "@switchyard/contracts/credentials";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Field, fieldErrors, inputClass } from "@/app/signin/form-field";
import { buttonClass, ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { selectClass } from "./ui";

/** Turns `apiKey` into "Api key" for a label; the schema's field names are the source of truth. */
const labelOf = (name: string) =>
  name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^./, (c) => c.toUpperCase());

/**
 * The create form for a credential, generated from the chosen type's zod schema (via
 * `credential.types`). The values typed here are sent once and cleared; they never come back.
 */
export function CredentialForm({ onCreated }: { onCreated: (name: string) => void }) {
  const trpc = useTRPC();
  const types = useQuery(trpc.credential.types.queryOptions());
  const [type, setType] = useState<CredentialType>("httpBearer");
  const [name, setName] = useState("");
  const [data, setData] = useState<Record<string, string>>({});
  const create = useMutation(
    trpc.credential.create.mutationOptions({
      onSuccess: (r) => {
        setName("");
        setData({});
        onCreated(r.name);
      },
    }),
  );
  const errors = fieldErrors(create.error);
  const current = types.data?.find((t) => t.type === type);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!current) return;
    // Untouched optional fields are left out so their schema defaults apply.
    const filled = Object.fromEntries(
      current.fields.flatMap((f) => {
        const v = data[f.name] ?? (f.required ? "" : undefined);
        return v === undefined ? [] : [[f.name, v]];
      }),
    );
    create.mutate({ name, type, data: filled });
  };

  return (
    <form onSubmit={submit} aria-label="New credential" className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="credential-name"
          label="Name"
          placeholder="e.g. CRM API token"
          value={name}
          error={errors.name}
          onChange={(e) => setName(e.target.value)}
        />
        <div className="space-y-1">
          <label htmlFor="credential-type" className="block text-sm font-medium">
            Type
          </label>
          <select
            id="credential-type"
            className={`${selectClass} w-full py-2`}
            value={type}
            onChange={(e) => {
              const picked = types.data?.find((t) => t.type === e.target.value);
              if (picked) setType(picked.type);
              setData({});
              create.reset();
            }}
          >
            {types.data?.map((t) => (
              <option key={t.type} value={t.type}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {current ? (
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="sr-only">{current.label} fields</legend>
          {current.fields.map((f) => {
            const id = `credential-field-${f.name}`;
            const label = `${labelOf(f.name)}${f.required ? "" : " (optional)"}`;
            const error = errors[`data.${f.name}`];
            if (f.options)
              return (
                <div key={f.name} className="space-y-1">
                  <label htmlFor={id} className="block text-sm font-medium">
                    {label}
                  </label>
                  <select
                    id={id}
                    className={inputClass}
                    value={data[f.name] ?? f.default ?? f.options[0]}
                    onChange={(e) => setData({ ...data, [f.name]: e.target.value })}
                  >
                    {f.options.map((o) => (
                      <option key={o}>{o}</option>
                    ))}
                  </select>
                </div>
              );
            return (
              <Field
                key={f.name}
                id={id}
                label={label}
                type={f.masked ? "password" : "text"}
                autoComplete={f.masked ? "new-password" : "off"}
                value={data[f.name] ?? ""}
                error={error}
                hint={
                  f.name === "allowedHosts"
                    ? "where it may be sent: comma-separated, e.g. api.example.com, *.example.com"
                    : f.pattern === "^\\d+$"
                      ? "digits only"
                      : undefined
                }
                onChange={(e) => setData({ ...data, [f.name]: e.target.value })}
              />
            );
          })}
        </fieldset>
      ) : null}
      {create.error && !Object.keys(errors).some((k) => k === "name" || k.startsWith("data.")) ? (
        <ErrorBox message={create.error.message} />
      ) : null}
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Values are encrypted on the server and never shown again, not even to you. Allowed hosts can be edited
        in the list below; to change a secret value, create a new credential and delete the old one.
      </p>
      <button type="submit" className={buttonClass} disabled={create.isPending || !name.trim() || !current}>
        {create.isPending ? "Saving…" : "Save credential"}
      </button>
    </form>
  );
}
