"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { fieldErrors, inputClass } from "@/app/signin/form-field";
import { buttonClass, ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { Notice } from "./ui";

const toList = (text: string) =>
  text
    .split(/[\n,]/)
    .map((h) => h.trim())
    .filter(Boolean);

/** Settings › Network: `http.allowHosts`, the hosts the outbound SSRF guard lets through. */
export function NetworkForm() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const current = useQuery(trpc.settings.network.get.queryOptions());
  const [text, setText] = useState<string>();
  // Filled once from the server; later refetches never overwrite what is being typed.
  useEffect(() => {
    if (current.data) setText((t) => t ?? current.data.allowHosts.join("\n"));
  }, [current.data]);
  const save = useMutation(
    trpc.settings.network.set.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.settings.network.get.queryKey() }),
    }),
  );
  const hosts = toList(text ?? "");
  const errors = Object.entries(fieldErrors(save.error)).map(([path, message]) => {
    const i = Number(path.split(".")[1]);
    return Number.isInteger(i) ? `${hosts[i] ?? path}: ${message}` : message;
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ allowHosts: hosts });
  };
  return (
    <form onSubmit={submit} aria-label="Allowed hosts" className="space-y-4" noValidate>
      <Notice tone="warning">
        <strong>Every host listed here skips the SSRF guard.</strong> HTTP Request nodes and agent tools can
        then reach it even when it is on your private network, on this machine (127.0.0.1, localhost) or a
        cloud metadata address. Anyone who can edit a flow — or steer an agent through a webhook or e-mail —
        can send requests there. Add only services you mean flows to call, such as a local model server.
      </Notice>
      {current.error ? <ErrorBox message={current.error.message} /> : null}
      <div className="space-y-1">
        <label htmlFor="allow-hosts" className="block text-sm font-medium">
          Hosts exempt from the guard (one per line)
        </label>
        <textarea
          id="allow-hosts"
          rows={6}
          className={`${inputClass} font-mono`}
          placeholder={"127.0.0.1\nollama.internal"}
          value={text ?? ""}
          disabled={text === undefined}
          onChange={(e) => setText(e.target.value)}
        />
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Exact host names or IP addresses as they appear in a URL, without scheme, port or path.
        </p>
      </div>
      {errors.length > 0 ? (
        <ul role="alert" className="list-disc pl-5 text-sm text-red-700 dark:text-red-300">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : save.error ? (
        <ErrorBox message={save.error.message} />
      ) : null}
      <button type="submit" className={buttonClass} disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save"}
      </button>
      {save.isSuccess ? (
        <div role="status">
          <Notice tone="success">
            Saved {save.data.allowHosts.length} host{save.data.allowHosts.length === 1 ? "" : "s"}. It applies
            to the next outbound request.
          </Notice>
        </div>
      ) : null}
    </form>
  );
}
