"use client";

import { useQuery } from "@tanstack/react-query";
import { DocumentsPanel } from "@/components/memory/documents-panel";
import { ImportPanel } from "@/components/memory/import-panel";
import { ItemsPanel } from "@/components/memory/items-panel";
import { SearchPanel } from "@/components/memory/search-panel";
import { StatusBar } from "@/components/memory/status-bar";
import { ErrorBox, PageHeader } from "@/components/page";
import { useTRPC } from "@/trpc/client";

export default function MemoryPage() {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.status.queryOptions());
  const status = useQuery(trpc.memory.status.queryOptions());
  const role = me.data?.user?.role;
  const canWrite = role === "owner" || role === "editor";
  const namespaces = status.data?.namespaces.map((n) => n.namespace) ?? [];

  return (
    <div>
      <PageHeader
        title="Memory"
        description="What your automations know: notes, conversations, contacts, profile. Agents read memory; only people write it."
      />
      <div className="max-w-5xl space-y-6 px-8 py-6">
        {status.error ? <ErrorBox message={status.error.message} /> : null}
        {status.data ? <StatusBar status={status.data} canWrite={canWrite} /> : null}
        <SearchPanel namespaces={namespaces.length > 0 ? namespaces : ["global"]} />
        <ItemsPanel namespaces={namespaces} canWrite={canWrite} />
        {canWrite ? <ImportPanel /> : null}
        <DocumentsPanel canWrite={canWrite} />
      </div>
    </div>
  );
}
