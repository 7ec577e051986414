"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { buttonClass, ErrorBox } from "@/components/page";
import { useTRPC } from "@/trpc/client";

const triggerLabel: Record<string, string> = {
  "trigger.webhook": "Webhook",
  "trigger.email": "E-mail",
  "trigger.cron": "Schedule",
  "trigger.manual": "Manual",
};

/** "Start from a template": the example flows the host ships; using one creates a flow and opens it. */
export function TemplatePicker({ onClose }: { onClose(): void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const templates = useQuery(trpc.template.list.queryOptions());
  const use = useMutation(
    trpc.template.use.mutationOptions({
      onSuccess: async ({ id }) => {
        await queryClient.invalidateQueries({ queryKey: trpc.flow.list.queryKey() });
        router.push(`/flows/${id}`);
      },
    }),
  );
  return (
    <section
      aria-label="Start from a template"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center">
        <h2 className="text-sm font-semibold">Start from a template</h2>
        <button type="button" className="ml-auto text-sm text-slate-500 hover:underline" onClick={onClose}>
          Close
        </button>
      </div>
      {templates.error ? <ErrorBox message={templates.error.message} /> : null}
      {use.error ? <ErrorBox message={`Could not create the flow: ${use.error.message}`} /> : null}
      {templates.isPending ? <p className="text-sm text-slate-500">Loading templates…</p> : null}
      {templates.data?.length === 0 ? (
        <p className="text-sm text-slate-500">No templates: add flow files to examples/flows/.</p>
      ) : null}
      <ul className="grid gap-3 sm:grid-cols-2">
        {templates.data?.map((t) => (
          <li
            key={t.id}
            data-testid="template-card"
            data-template-id={t.id}
            className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
          >
            <div className="flex items-center gap-2">
              <h3 className="font-medium">{t.name}</h3>
              {t.triggerType ? (
                <span className="rounded-full bg-slate-100 px-2 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
                  {triggerLabel[t.triggerType] ?? t.triggerType}
                </span>
              ) : null}
              <span className="ml-auto text-xs text-slate-500">
                {t.nodeCount} node{t.nodeCount === 1 ? "" : "s"}
              </span>
            </div>
            {t.description ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">{t.description}</p>
            ) : null}
            {t.problem ? (
              <p role="alert" className="text-xs text-red-600 dark:text-red-400">
                {t.problem}
              </p>
            ) : null}
            <button
              type="button"
              className={`${buttonClass} mt-auto self-start`}
              disabled={t.problem !== null || use.isPending}
              onClick={() => use.mutate({ id: t.id })}
              aria-label={`Use template ${t.name}`}
            >
              {use.isPending && use.variables?.id === t.id ? "Creating…" : "Use template"}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
