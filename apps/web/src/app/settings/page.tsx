"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorBox, PageHeader } from "@/components/page";
import { useTRPC } from "@/trpc/client";

type Role = "owner" | "editor" | "viewer";
interface Entry {
  href: string;
  title: string;
  text: string;
  /** Roles that can open it; the others see it greyed out with the reason. */
  roles?: Role[];
}

const groups: { title: string; entries: Entry[] }[] = [
  {
    title: "Agents",
    entries: [
      {
        href: "/settings/models",
        title: "Models",
        text: "The OpenAI-compatible LLM provider and the model for each hint.",
        roles: ["owner"],
      },
      {
        href: "/settings/policy",
        title: "Agent policy",
        text: "What agents may do, per channel that starts a run.",
        roles: ["owner"],
      },
    ],
  },
  {
    title: "Secrets and network",
    entries: [
      {
        href: "/settings/credentials",
        title: "Credentials",
        text: "Encrypted tokens, passwords and keys for nodes and providers.",
      },
      {
        href: "/settings/network",
        title: "Network",
        text: "Hosts exempt from the outbound request guard.",
        roles: ["owner"],
      },
    ],
  },
  {
    title: "Accounts",
    entries: [
      { href: "/settings/users", title: "Users", text: "People, their roles and access.", roles: ["owner"] },
      { href: "/settings/api-keys", title: "API keys", text: "Keys for scripts and other systems." },
      { href: "/settings/audit", title: "Audit log", text: "Who changed what, and when.", roles: ["owner"] },
    ],
  },
  {
    title: "Data",
    entries: [{ href: "/settings/retention", title: "Run retention", text: "How long run traces are kept." }],
  },
];

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

export default function SettingsPage() {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  const me = useQuery(trpc.auth.status.queryOptions());
  const storage = useQuery(trpc.run.retention.storage.queryOptions());
  const role = me.data?.user?.role as Role | undefined;
  return (
    <div>
      <PageHeader title="Settings" description="This server, its agents, secrets, accounts and data." />
      <div className="max-w-4xl space-y-8 px-8 py-6">
        <nav aria-label="Settings sections" className="space-y-6">
          {groups.map((g) => (
            <div key={g.title}>
              <h2 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">{g.title}</h2>
              <ul className="grid gap-3 sm:grid-cols-2">
                {g.entries.map((e) => {
                  const allowed = !e.roles || !role || e.roles.includes(role);
                  return (
                    <li key={e.href}>
                      <Link
                        href={e.href}
                        aria-disabled={!allowed}
                        className={`block h-full rounded-xl border border-slate-200 bg-white p-4 transition-colors hover:border-brand-500 dark:border-slate-800 dark:bg-slate-900 ${allowed ? "" : "pointer-events-none opacity-60"}`}
                      >
                        <span className="block text-sm font-semibold">{e.title}</span>
                        <span className="mt-1 block text-sm text-slate-500 dark:text-slate-400">
                          {e.text}
                        </span>
                        {allowed ? null : (
                          <span className="mt-2 block text-xs text-slate-500">Owners only</span>
                        )}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>

        <section aria-label="This server">
          <h2 className="mb-2 text-xs font-semibold uppercase tracking-wide text-slate-500">This server</h2>
          {info.error ? <ErrorBox message={info.error.message} /> : null}
          {info.data ? (
            <dl className="grid grid-cols-[12rem_1fr] gap-x-6 gap-y-3 rounded-xl border border-slate-200 bg-white p-6 text-sm dark:border-slate-800 dark:bg-slate-900">
              <dt className="text-slate-500">Version</dt>
              <dd>{info.data.version}</dd>
              <dt className="text-slate-500">Database</dt>
              <dd>
                {info.data.db === "ok" ? "healthy" : "unreachable"}
                {storage.data ? (
                  <span data-testid="settings-db-size" className="text-slate-500">
                    {" "}
                    · {mb(storage.data.size.totalBytes)} on disk
                  </span>
                ) : null}
              </dd>
              {info.data.dataDir ? (
                <>
                  <dt className="text-slate-500">Data directory</dt>
                  <dd className="font-mono">{info.data.dataDir}</dd>
                </>
              ) : null}
              <dt className="text-slate-500">Webhook base URL</dt>
              <dd className="font-mono">{info.data.baseUrl}/hooks/…</dd>
              <dt className="text-slate-500">Inbound e-mail</dt>
              <dd className="font-mono">
                *@{info.data.smtp.domain} on port {info.data.smtp.port}
              </dd>
            </dl>
          ) : null}
        </section>
      </div>
    </div>
  );
}
