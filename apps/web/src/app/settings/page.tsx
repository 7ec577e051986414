"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorBox, PageHeader } from "@/components/page";
import { useTRPC } from "@/trpc/client";

export default function SettingsPage() {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  return (
    <div>
      <PageHeader title="Settings" description="This server and where it keeps its data." />
      <div className="px-8 py-6">
        {info.error ? <ErrorBox message={info.error.message} /> : null}
        {info.data ? (
          <dl className="grid max-w-2xl grid-cols-[12rem_1fr] gap-x-6 gap-y-3 rounded-xl border border-slate-200 bg-white p-6 text-sm dark:border-slate-800 dark:bg-slate-900">
            <dt className="text-slate-500">Version</dt>
            <dd>{info.data.version}</dd>
            <dt className="text-slate-500">Database</dt>
            <dd>{info.data.db === "ok" ? "healthy" : "unreachable"}</dd>
            <dt className="text-slate-500">Data directory</dt>
            <dd className="font-mono">{info.data.dataDir}</dd>
            <dt className="text-slate-500">Webhook base URL</dt>
            <dd className="font-mono">{info.data.baseUrl}/hooks/…</dd>
            <dt className="text-slate-500">Inbound e-mail</dt>
            <dd className="font-mono">
              *@{info.data.smtp.domain} on port {info.data.smtp.port}
            </dd>
          </dl>
        ) : null}
      </div>
    </div>
  );
}
