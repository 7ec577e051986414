"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/client";

const selectClass =
  "w-full rounded-md border bg-white px-2.5 py-1.5 text-sm dark:bg-slate-800 border-slate-300 dark:border-slate-700 aria-[invalid=true]:border-red-400";

/**
 * An agent node's `agent_ref`: one of the agents the host loaded, each with its `when_to_use`. A ref
 * that is not loaded stays selected and marked, so opening a flow never silently changes it.
 */
export function AgentRefPicker({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: unknown;
  onChange(value: unknown): void;
  invalid: boolean;
}) {
  const trpc = useTRPC();
  const agents = useQuery(trpc.agent.list.queryOptions(undefined, { staleTime: 60_000 }));
  const current = typeof value === "string" ? value : "";
  const list = agents.data?.agents ?? [];
  const chosen = list.find((a) => a.id === current);
  const unknown = current !== "" && agents.data !== undefined && !chosen;
  return (
    <div className="space-y-1">
      <select
        id={id}
        className={selectClass}
        aria-invalid={invalid || unknown || undefined}
        value={current}
        disabled={agents.isPending}
        onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
      >
        <option value="">{agents.isPending ? "Loading agents…" : "Choose an agent…"}</option>
        {unknown ? <option value={current}>{current} (not loaded)</option> : null}
        {list.map((a) => (
          <option key={a.id} value={a.id}>
            {a.displayName} ({a.id})
          </option>
        ))}
      </select>
      {agents.error ? (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          Could not load the agents: {agents.error.message}
        </p>
      ) : null}
      {agents.data && list.length === 0 ? (
        <p className="text-xs text-slate-500">No agents are loaded: add a definition under agents/.</p>
      ) : null}
      {chosen ? (
        <p data-testid="agent-when-to-use" className="text-xs text-slate-600 dark:text-slate-400">
          {chosen.whenToUse}
        </p>
      ) : null}
    </div>
  );
}
