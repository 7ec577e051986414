"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorBox, PageHeader } from "@/components/page";
import { type Operation, OperationCard } from "./operation-card";
import type { Components } from "./schema-view";

interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Components };
}

// The server generates this document from the same zod schemas its router parses with.
const documentUrl = "/api/v1/openapi.json";

async function loadDocument(): Promise<OpenApiDocument> {
  const res = await fetch(documentUrl, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`could not load ${documentUrl} (HTTP ${res.status})`);
  return (await res.json()) as OpenApiDocument;
}

export default function ApiDocsPage() {
  const doc = useQuery({ queryKey: ["openapi"], queryFn: loadDocument, staleTime: Number.POSITIVE_INFINITY });
  const operations = doc.data
    ? Object.entries(doc.data.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ path, method, op })),
      )
    : [];
  return (
    <div>
      <PageHeader
        title="REST API"
        description={
          doc.data
            ? `${doc.data.info.title} ${doc.data.info.version} — every endpoint under /api/v1.`
            : "Every endpoint under /api/v1."
        }
        actions={
          <a href={documentUrl} className="text-sm font-medium text-brand-600 hover:underline">
            openapi.json
          </a>
        }
      />
      <div className="flex gap-8 px-8 py-6">
        {doc.error ? <ErrorBox message={doc.error.message} /> : null}
        {doc.data ? (
          <>
            <nav
              aria-label="Endpoints"
              className="sticky top-6 hidden w-56 shrink-0 self-start text-sm lg:block"
            >
              {doc.data.tags.map((tag) => (
                <div key={tag.name} className="mb-4">
                  <p className="mb-1 font-semibold">{tag.name}</p>
                  {operations
                    .filter((o) => o.op.tags.includes(tag.name))
                    .map((o) => (
                      <a
                        key={o.op.operationId}
                        href={`#${o.op.operationId}`}
                        className="block truncate py-0.5 text-slate-600 hover:text-brand-600 dark:text-slate-300"
                      >
                        <span className="mr-1 font-mono text-xs uppercase">{o.method}</span>
                        {o.path}
                      </a>
                    ))}
                </div>
              ))}
            </nav>
            <div className="min-w-0 flex-1 space-y-8">
              <section className="rounded-xl border border-slate-200 bg-white p-5 text-sm text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300">
                <p>{doc.data.info.description}</p>
                <pre className="mt-3 overflow-x-auto rounded bg-slate-100 p-3 font-mono text-xs dark:bg-slate-800">
                  {`curl -H "Authorization: Bearer $SWITCHYARD_API_KEY" ${typeof window === "undefined" ? "" : window.location.origin}/api/v1/flows`}
                </pre>
                <p className="mt-2">
                  Create API keys under Settings → API keys, or with{" "}
                  <code className="font-mono">switchyard apikey create</code>.
                </p>
              </section>
              {doc.data.tags.map((tag) => (
                <section key={tag.name} aria-labelledby={`tag-${tag.name}`} className="space-y-4">
                  <h2 id={`tag-${tag.name}`} className="text-lg font-semibold">
                    {tag.name}
                  </h2>
                  {operations
                    .filter((o) => o.op.tags.includes(tag.name))
                    .map((o) => (
                      <OperationCard
                        key={o.op.operationId}
                        method={o.method}
                        path={o.path}
                        op={o.op}
                        components={doc.data.components.schemas}
                      />
                    ))}
                </section>
              ))}
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}
