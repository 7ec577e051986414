"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState, ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { NoProviderNotice } from "./no-provider-notice";
import { ToolAccess } from "./tool-access";

const chip =
  "rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200";

/** Every loaded agent definition with the fields that decide what it can do. */
export function AgentList() {
  const trpc = useTRPC();
  const list = useQuery(trpc.agent.list.queryOptions());
  const me = useQuery(trpc.auth.status.queryOptions());
  if (list.error) return <ErrorBox message={list.error.message} />;
  if (!list.data) return null;
  if (list.data.agents.length === 0)
    return (
      <EmptyState title="No agent definitions loaded">
        Agent definitions live in <code className="font-mono">agents/&lt;id&gt;/agent.toml</code> and load at
        start-up.
      </EmptyState>
    );
  return (
    <div className="space-y-4">
      {list.data.providerConfigured ? null : <NoProviderNotice isOwner={me.data?.user?.role === "owner"} />}
      <ul aria-label="Agents" className="grid gap-4 lg:grid-cols-2">
        {list.data.agents.map((a) => (
          <li
            key={a.id}
            data-testid="agent-card"
            data-agent-id={a.id}
            className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <div className="flex items-start justify-between gap-3">
              <div>
                <Link href={`/agents/${a.id}`} className="font-semibold hover:underline">
                  {a.displayName}
                </Link>
                <p className="font-mono text-xs text-slate-500">{a.id}</p>
              </div>
              <span
                title="version hash of agent.toml + prompt.md"
                className="font-mono text-xs text-slate-400"
              >
                {a.versionHash}
              </span>
            </div>
            <dl className="mt-3 grid grid-cols-[8rem_1fr] gap-y-1.5 text-sm">
              <dt className="text-slate-500">Tier</dt>
              <dd>{a.tier}</dd>
              <dt className="text-slate-500">Sandbox</dt>
              <dd>{a.sandboxMode}</dd>
              <dt className="text-slate-500">Model</dt>
              <dd>
                {a.modelExact ? `exact: ${a.modelExact}` : a.modelHint ? `hint: ${a.modelHint}` : "default"}
              </dd>
              <dt className="text-slate-500">Tools</dt>
              <dd className="flex flex-wrap gap-1" data-testid="agent-tools">
                {a.tools === null ? <span className={chip}>all registered tools</span> : null}
                {a.tools?.length === 0 ? <span className="text-slate-400">none</span> : null}
                {a.tools?.map((t) => (
                  <span key={t} className={chip}>
                    {t}
                  </span>
                ))}
              </dd>
              <dt className="text-slate-500">Sub-agents</dt>
              <dd className="flex flex-wrap gap-1">
                {a.subagents.length === 0 ? <span className="text-slate-400">none</span> : null}
                {a.subagents.map((s) => (
                  <Link key={s} href={`/agents/${s}`} className={`${chip} hover:underline`}>
                    {s}
                  </Link>
                ))}
              </dd>
              <dt className="text-slate-500">Result cap</dt>
              <dd>
                {a.maxResultChars === null ? "none" : `${a.maxResultChars.toLocaleString("en")} characters`}
              </dd>
            </dl>
            <div className="mt-4">
              <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
                Tool access by channel
              </h3>
              <ToolAccess agentId={a.id} access={a.access} />
            </div>
            {a.retrievalOnly ? (
              <p className="mt-3 text-xs text-emerald-700 dark:text-emerald-300">
                works without a model (retrieval-only)
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
