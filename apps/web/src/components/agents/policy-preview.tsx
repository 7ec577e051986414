import type { PolicyPreview as PolicyPreviewResult } from "@switchyard/runtime/trpc";

/** What one agent may do on one channel: the tool sets of its policy session and the prompt boundary. */
export type PolicyPreviewData = PolicyPreviewResult;

const columns = [
  { key: "allowed", title: "Allowed", tone: "text-emerald-700 dark:text-emerald-300", empty: "nothing" },
  { key: "hidden", title: "Hidden (not in the agent's tool list)", tone: "text-slate-500", empty: "none" },
  {
    key: "denied",
    title: "Denied (above the ceiling)",
    tone: "text-red-700 dark:text-red-300",
    empty: "none",
  },
] as const;

export function PolicyPreview({ preview }: { preview: PolicyPreviewData }) {
  const reasons = new Map(preview.decisions.map((d) => [d.tool, d.reason]));
  return (
    <div className="space-y-4" data-testid="policy-preview">
      <p className="text-sm">
        On <span className="font-mono">{preview.channel}</span>,{" "}
        <span className="font-mono">{preview.agentId}</span> may use tools up to{" "}
        <strong data-testid="preview-permission">{preview.allowedPermission}</strong> (risk{" "}
        {preview.riskLevel})
        {preview.narrowedBySandbox
          ? ` — the channel allows ${preview.channelCeiling}, narrowed by the agent's read_only sandbox`
          : ""}
        .
      </p>
      <div className="grid gap-3 sm:grid-cols-3">
        {columns.map((c) => (
          <div key={c.key} className="rounded-md border border-slate-200 p-3 dark:border-slate-800">
            <h4 className={`mb-2 text-xs font-semibold uppercase tracking-wide ${c.tone}`}>{c.title}</h4>
            <ul aria-label={`${c.key} tools`} className="space-y-1 font-mono text-sm">
              {preview[c.key].map((name) => (
                <li key={name} title={reasons.get(name)} data-testid={`tool-${c.key}`}>
                  {name}
                </li>
              ))}
              {preview[c.key].length === 0 ? <li className="font-sans text-slate-400">{c.empty}</li> : null}
            </ul>
          </div>
        ))}
      </div>
      <div>
        <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
          Prompt section the agent sees
        </h4>
        {preview.boundary ? (
          <pre
            data-testid="policy-boundary"
            className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100"
          >
            {preview.boundary}
          </pre>
        ) : (
          <p data-testid="policy-boundary" className="text-sm text-slate-500">
            None: nothing is restricted, so the prompt gets no Tool Policy Boundary section.
          </p>
        )}
      </div>
    </div>
  );
}
