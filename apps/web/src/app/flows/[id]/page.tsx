"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { use } from "react";
import { ErrorBox, PageHeader } from "@/components/page";
import { useTRPC } from "@/trpc/client";

export default function FlowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = use(params);
  const trpc = useTRPC();
  const flow = useQuery(trpc.flow.get.queryOptions({ id }));
  const versions = useQuery(trpc.flow.versions.queryOptions({ id }));
  return (
    <div>
      <PageHeader
        title={flow.data?.flow.name ?? "Flow"}
        description={flow.data ? `Version ${flow.data.version.version} · ${flow.data.flow.active ? "active" : "inactive"}` : undefined}
        actions={<Link href="/flows" className="text-sm text-brand-600 hover:underline">All flows</Link>}
      />
      <div className="grid gap-6 px-8 py-6 lg:grid-cols-[1fr_16rem]">
        {flow.error ? <ErrorBox message={flow.error.message} /> : null}
        {flow.data ? (
          <section aria-label="Definition" className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
            <h2 className="mb-2 text-sm font-semibold">Definition (flow file format)</h2>
            <pre className="max-h-[70vh] overflow-auto text-xs">{JSON.stringify(flow.data.version.definition, null, 2)}</pre>
          </section>
        ) : null}
        <section aria-label="Versions" className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
          <h2 className="mb-2 text-sm font-semibold">Versions</h2>
          <ul className="space-y-1 text-sm">
            {versions.data?.map((v) => (
              <li key={v.version}>
                v{v.version} · {new Date(v.createdAt).toLocaleString()}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
