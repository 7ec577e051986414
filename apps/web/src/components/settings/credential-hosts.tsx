"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Field, fieldErrors } from "@/app/signin/form-field";
import { buttonClass, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";

/**
 * Where a credential may be sent (not secret, so shown), and for the owner a small form to change it.
 * A credential without hosts (stored before they were required) is refused by every node until fixed.
 */
export function CredentialHosts({
  id,
  name,
  hosts,
  canEdit,
}: {
  id: string;
  name: string;
  hosts: string[] | null;
  canEdit: boolean;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const save = useMutation(
    trpc.credential.setAllowedHosts.mutationOptions({
      onSuccess: () => {
        setEditing(false);
        void qc.invalidateQueries({ queryKey: trpc.credential.list.queryKey() });
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ id, allowedHosts: text });
  };
  const fieldId = `credential-hosts-${id}`;

  if (editing)
    return (
      <form onSubmit={submit} aria-label={`Allowed hosts of ${name}`} className="mt-2 space-y-2" noValidate>
        <Field
          id={fieldId}
          label="Allowed hosts"
          value={text}
          error={fieldErrors(save.error)["data.allowedHosts"] ?? save.error?.message}
          hint="comma-separated, e.g. api.example.com, *.example.com"
          onChange={(e) => setText(e.target.value)}
        />
        <div className="flex gap-2">
          <button type="submit" className={buttonClass} disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save hosts"}
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
      </form>
    );
  return (
    <p className="mt-1 text-xs" data-testid="credential-hosts">
      {hosts && hosts.length > 0 ? (
        <span className="text-slate-600 dark:text-slate-300">Sent only to: {hosts.join(", ")}</span>
      ) : (
        <span className="text-amber-700 dark:text-amber-300">
          No allowed hosts: every node refuses this credential until you add the hosts it may be sent to.
        </span>
      )}
      {canEdit ? (
        <button
          type="button"
          className="ml-2 underline"
          aria-label={`Edit allowed hosts of ${name}`}
          onClick={() => {
            save.reset();
            setText((hosts ?? []).join(", "));
            setEditing(true);
          }}
        >
          Edit
        </button>
      ) : null}
    </p>
  );
}
