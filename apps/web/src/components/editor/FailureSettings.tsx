"use client";

import type { FlowSettings } from "@switchyard/contracts";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/trpc/client";
import { breakCoalescing, useEditor } from "./store";

const input =
  "block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-normal dark:border-slate-700 dark:bg-slate-800";
const label = "block space-y-1 text-xs font-medium text-slate-700 dark:text-slate-300";

/** Splits what a person typed into addresses; the flow's own schema says which ones are not addresses. */
const addresses = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** "When a run fails": the error flow to start and who gets an e-mail. Saved with the flow. */
export function FailureSettings({
  settings,
  set,
}: {
  settings: FlowSettings;
  set: (patch: Partial<FlowSettings>, key: string) => void;
}) {
  const trpc = useTRPC();
  const flowId = useEditor((s) => s.flowId);
  const choices = useQuery(trpc.flow.errorFlowChoices.queryOptions());
  const credentials = useQuery(trpc.credential.list.queryOptions());
  const smtp = (credentials.data ?? []).filter((c) => c.type === "smtp");
  const email = settings.failureEmail;
  const [toText, setToText] = useState(email?.to.join(", ") ?? "");
  const errorFlows = (choices.data ?? []).filter((f) => f.id !== flowId);

  const setEmail = (credentialId: string, to: string[]) =>
    set({ failureEmail: credentialId ? { credentialId, to } : undefined }, "failure-email");

  return (
    <section
      aria-label="When a run fails"
      className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">When a run fails</h3>
      <label className={label}>
        Start error flow
        <select
          aria-label="Error flow"
          value={settings.errorFlowId ?? ""}
          onChange={(e) => set({ errorFlowId: e.target.value || undefined }, "error-flow")}
          className={input}
        >
          <option value="">None</option>
          {errorFlows.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
          {/* A saved choice that is no longer offered stays visible; the Problems list says why. */}
          {settings.errorFlowId && !errorFlows.some((f) => f.id === settings.errorFlowId) ? (
            <option value={settings.errorFlowId}>{settings.errorFlowId} (not an error flow)</option>
          ) : null}
        </select>
      </label>
      {choices.data && errorFlows.length === 0 ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          No error flows yet: a flow that starts with an Error trigger can be picked here.
        </p>
      ) : null}

      {credentials.data && smtp.length === 0 ? (
        <p
          role="note"
          className="rounded-md bg-amber-50 px-2.5 py-1.5 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-300"
        >
          Failure e-mails need an SMTP credential, and none is configured.{" "}
          <Link href="/settings/credentials" className="underline">
            Add one in Settings → Credentials
          </Link>
          .
        </p>
      ) : (
        <>
          <label className={label}>
            E-mail through
            <select
              aria-label="Failure e-mail credential"
              value={email?.credentialId ?? ""}
              onChange={(e) => setEmail(e.target.value, email?.to ?? addresses(toText))}
              className={input}
            >
              <option value="">No e-mail</option>
              {smtp.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          {email ? (
            <label className={label}>
              E-mail to (comma-separated)
              <input
                aria-label="Failure e-mail addresses"
                value={toText}
                onChange={(e) => {
                  setToText(e.target.value);
                  setEmail(email.credentialId, addresses(e.target.value));
                }}
                onBlur={breakCoalescing}
                placeholder="ops@example.com"
                className={input}
              />
            </label>
          ) : null}
        </>
      )}
    </section>
  );
}
