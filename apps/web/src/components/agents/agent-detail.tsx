"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ErrorBox, PageHeader } from "@/components/page";
import { Section } from "@/components/settings/ui";
import { useTRPC } from "@/trpc/client";
import { NoProviderNotice } from "./no-provider-notice";
import { PolicyPreview } from "./policy-preview";

/** One definition: what it is for, its prompt (read-only: edit prompt.md) and its policy per channel. */
export function AgentDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const agent = useQuery(trpc.agent.get.queryOptions({ id }));
  const me = useQuery(trpc.auth.status.queryOptions());
  const [channel, setChannel] = useState("webhook");
  const a = agent.data;
  const preview = a?.policy.find((p) => p.channel === channel);
  const isOwner = me.data?.user?.role === "owner";
  return (
    <div>
      <PageHeader
        title={a?.displayName ?? id}
        description={
          a ? `${a.id} · ${a.tier} tier · sandbox ${a.sandboxMode} · version ${a.versionHash}` : undefined
        }
        actions={
          <Link href="/agents" className="text-sm text-slate-500 hover:underline">
            All agents
          </Link>
        }
      />
      <div className="max-w-5xl space-y-6 px-8 py-6">
        {agent.error ? <ErrorBox message={agent.error.message} /> : null}
        {a && !a.providerConfigured ? <NoProviderNotice isOwner={isOwner} /> : null}
        {a ? (
          <>
            <Section title="When to use">
              <p className="text-sm whitespace-pre-line" data-testid="agent-when-to-use">
                {a.whenToUse}
              </p>
              <dl className="grid grid-cols-[10rem_1fr] gap-y-1.5 text-sm">
                <dt className="text-slate-500">Delegate tool</dt>
                <dd className="font-mono">{a.delegateName}</dd>
                <dt className="text-slate-500">Model</dt>
                <dd>{a.modelExact ? `exact: ${a.modelExact}` : `hint: ${a.modelHint ?? "default"}`}</dd>
                <dt className="text-slate-500">Tools</dt>
                <dd className="font-mono">
                  {a.tools === null ? "all registered tools" : a.tools.join(", ") || "none"}
                </dd>
                <dt className="text-slate-500">Sub-agents</dt>
                <dd className="font-mono">{a.subagents.join(", ") || "none"}</dd>
                <dt className="text-slate-500">Iterations</dt>
                <dd>
                  {a.maxIterations} ({a.iterationPolicy})
                </dd>
                <dt className="text-slate-500">Temperature</dt>
                <dd>{a.temperature}</dd>
                <dt className="text-slate-500">Result cap</dt>
                <dd>{a.maxResultChars === null ? "none" : `${a.maxResultChars} characters`}</dd>
                <dt className="text-slate-500">Timeout</dt>
                <dd>{a.timeoutSecs === null ? "the step's timeout" : `${a.timeoutSecs} s`}</dd>
              </dl>
            </Section>

            <Section title="Tool policy by channel" label="Policy preview">
              <div role="tablist" aria-label="Channel" className="flex flex-wrap gap-1">
                {a.policy.map((p) => (
                  <button
                    key={p.channel}
                    type="button"
                    role="tab"
                    aria-selected={p.channel === channel}
                    onClick={() => setChannel(p.channel)}
                    className={`rounded-md px-3 py-1.5 font-mono text-sm ${p.channel === channel ? "bg-brand-500 text-white" : "bg-slate-100 text-slate-700 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200"}`}
                  >
                    {p.channel}
                  </button>
                ))}
              </div>
              {preview ? <PolicyPreview preview={preview} /> : null}
              <p className="text-xs text-slate-500">
                Under the saved channel ceilings
                {isOwner ? (
                  <>
                    {" "}
                    (
                    <Link href="/settings/policy" className="underline">
                      change them
                    </Link>
                    )
                  </>
                ) : null}
                .
              </p>
            </Section>

            <Section title="prompt.md">
              <p className="text-xs text-slate-500">
                Read-only here: edit agents/{a.id}/prompt.md and restart.
              </p>
              <pre
                data-testid="agent-prompt"
                className="max-h-[32rem] overflow-auto whitespace-pre-wrap rounded-md bg-slate-50 p-4 font-mono text-xs dark:bg-slate-950"
              >
                {a.prompt}
              </pre>
            </Section>
          </>
        ) : null}
      </div>
    </div>
  );
}
