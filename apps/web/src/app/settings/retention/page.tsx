"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { buttonClass, ErrorBox, PageHeader, secondaryButtonClass } from "@/components/page";
import { StorageWarning } from "@/components/runs/StorageWarning";
import { useTRPC } from "@/trpc/client";

const fields = [
  { key: "keepDays", label: "Keep runs for (days)" },
  { key: "keepFailedDays", label: "Keep failed runs for (days)" },
  { key: "keepRuns", label: "Keep at most (runs per flow)" },
] as const;
type Key = (typeof fields)[number]["key"];
type Rule = Partial<Record<Key, number>>;

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const toRule = (form: Record<Key, string>): Rule =>
  Object.fromEntries(
    fields.filter((f) => form[f.key].trim() !== "").map((f) => [f.key, Number(form[f.key])]),
  );
const toForm = (rule: Rule): Record<Key, string> =>
  Object.fromEntries(
    fields.map((f) => [f.key, rule[f.key] === undefined ? "" : String(rule[f.key])]),
  ) as Record<Key, string>;

/** Global retention of run traces, per-flow overrides, and the database's size on disk. */
export default function RetentionSettingsPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const policy = useQuery(trpc.run.retention.policy.queryOptions());
  const storage = useQuery(trpc.run.retention.storage.queryOptions());
  const flows = useQuery(trpc.flow.list.queryOptions());
  const [form, setForm] = useState<Record<Key, string>>(toForm({}));
  const [budget, setBudget] = useState("");
  const [overrides, setOverrides] = useState<Record<string, Record<Key, string>>>({});
  useEffect(() => {
    if (!policy.data) return;
    const { flows: perFlow, storageBudgetMb, ...global } = policy.data;
    setForm(toForm(global));
    setBudget(storageBudgetMb === undefined ? "" : String(storageBudgetMb));
    setOverrides(Object.fromEntries(Object.entries(perFlow).map(([id, r]) => [id, toForm(r)])));
  }, [policy.data]);
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.run.retention.pathKey() });
  const save = useMutation(trpc.run.retention.setPolicy.mutationOptions({ onSuccess: refresh }));
  const prune = useMutation(trpc.run.retention.pruneNow.mutationOptions({ onSuccess: refresh }));
  const [addFlow, setAddFlow] = useState("");

  const submit = () =>
    save.mutate({
      policy: {
        ...toRule(form),
        ...(budget.trim() === "" ? {} : { storageBudgetMb: Number(budget) }),
        flows: Object.fromEntries(Object.entries(overrides).map(([id, f]) => [id, toRule(f)])),
      },
    });
  const ruleInputs = (values: Record<Key, string>, set: (v: Record<Key, string>) => void, prefix: string) =>
    fields.map((f) => (
      <label key={f.key} className="flex flex-col gap-1 text-xs text-slate-500">
        {f.label}
        <input
          aria-label={`${prefix}${f.label}`}
          type="number"
          min={f.key === "keepRuns" ? 1 : 0}
          step={f.key === "keepRuns" ? 1 : "any"}
          value={values[f.key]}
          placeholder="forever"
          onChange={(e) => set({ ...values, [f.key]: e.target.value })}
          className="w-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
      </label>
    ));

  const st = storage.data;
  const s = st?.size;
  return (
    <div>
      <PageHeader
        title="Run retention"
        description="How long run traces are kept, and how much room they take."
      />
      <div className="max-w-3xl space-y-6 px-8 py-6">
        {policy.error ? <ErrorBox message={policy.error.message} /> : null}
        <section
          aria-label="Database size"
          className="rounded-xl border border-slate-200 bg-white p-4 text-sm dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 className="mb-2 font-semibold">Database</h2>
          {st?.warning ? <StorageWarning message={st.warning} /> : null}
          {s ? (
            <dl className="grid grid-cols-[12rem_1fr] gap-y-1">
              <dt className="text-slate-500">Size</dt>
              <dd data-testid="db-size">
                {mb(s.totalBytes)} ({mb(s.databaseBytes)} data + {mb(s.walBytes)} write-ahead log)
              </dd>
              <dt className="text-slate-500">Runs stored</dt>
              <dd data-testid="runs-stored">
                {st?.runs.total.toLocaleString()} ({st?.runs.lastDay.toLocaleString()} in the last 24 hours)
              </dd>
              <dt className="text-slate-500">Growth</dt>
              <dd data-testid="db-growth">
                about {mb(st?.growthBytesPerDay ?? 0)} a day at the last day&apos;s pace
              </dd>
              <dt className="text-slate-500">Storage budget</dt>
              <dd data-testid="db-budget">
                {st?.budgetBytes
                  ? `${mb(st.budgetBytes)}, ${Math.round((st.budgetUsed ?? 0) * 100)} % used`
                  : "none"}
              </dd>
              <dt className="text-slate-500">Free inside the file</dt>
              <dd>{mb(s.freeBytes)}</dd>
              <dt className="text-slate-500">Space reclaim</dt>
              <dd>
                {s.autoVacuum === "incremental"
                  ? "incremental (after each pruning)"
                  : "full VACUUM when a quarter of the file is free"}
              </dd>
              <dt className="text-slate-500">Last pruning</dt>
              <dd>
                {storage.data?.lastRun
                  ? `${new Date(storage.data.lastRun.startedAt).toLocaleString()}: ${storage.data.lastRun.deletedRuns} runs deleted, ${mb(Math.max(0, storage.data.lastRun.freedBytes))} freed`
                  : "not yet since start"}
              </dd>
            </dl>
          ) : null}
          <button
            type="button"
            className={`${secondaryButtonClass} mt-3`}
            disabled={prune.isPending}
            onClick={() => prune.mutate()}
          >
            {prune.isPending ? "Pruning…" : "Prune now"}
          </button>
          {prune.data ? (
            <p className="mt-2 text-xs text-slate-500">Deleted {prune.data.deletedRuns} runs.</p>
          ) : null}
          {prune.error ? <ErrorBox message={prune.error.message} /> : null}
        </section>
        <section
          aria-label="Policy"
          className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 className="text-sm font-semibold">All flows</h2>
          {st?.policySource === "default" ? (
            <p
              data-testid="default-policy"
              className="rounded-md bg-blue-50 px-3 py-2 text-xs text-blue-800 dark:bg-slate-800 dark:text-blue-300"
            >
              No policy has been saved, so the default applies: the values below. Save the policy to keep it;
              empty fields keep runs forever.
            </p>
          ) : null}
          <p className="text-xs text-slate-500">
            Empty fields keep runs forever. Queued, running and waiting runs are never deleted.
          </p>
          <div className="flex flex-wrap gap-4">
            {ruleInputs(form, setForm, "")}
            <label className="flex flex-col gap-1 text-xs text-slate-500">
              Storage budget (MB)
              <input
                aria-label="Storage budget (MB)"
                type="number"
                min={1}
                step="any"
                value={budget}
                placeholder="none"
                onChange={(e) => setBudget(e.target.value)}
                className="w-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
              />
            </label>
          </div>
          <p className="text-xs text-slate-500">
            Beyond the budget, the oldest finished runs of any flow are deleted; a warning shows from 80 %.
          </p>
          <h2 className="pt-2 text-sm font-semibold">Per-flow overrides</h2>
          {Object.entries(overrides).map(([id, values]) => (
            <div key={id} className="space-y-2 border-t border-slate-100 pt-3 dark:border-slate-800">
              <div className="flex items-center gap-2 text-sm">
                <span className="font-medium">{flows.data?.find((f) => f.id === id)?.name ?? id}</span>
                <button
                  type="button"
                  className="text-xs text-red-600 hover:underline"
                  onClick={() =>
                    setOverrides(Object.fromEntries(Object.entries(overrides).filter(([k]) => k !== id)))
                  }
                >
                  remove
                </button>
              </div>
              <div className="flex flex-wrap gap-4">
                {ruleInputs(values, (v) => setOverrides({ ...overrides, [id]: v }), `${id} `)}
              </div>
            </div>
          ))}
          <div className="flex items-center gap-2">
            <select
              aria-label="Add override for flow"
              value={addFlow}
              onChange={(e) => setAddFlow(e.target.value)}
              className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900"
            >
              <option value="">Choose a flow…</option>
              {flows.data
                ?.filter((f) => !overrides[f.id])
                .map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
            </select>
            <button
              type="button"
              className={secondaryButtonClass}
              disabled={!addFlow}
              onClick={() => {
                setOverrides({ ...overrides, [addFlow]: toForm({}) });
                setAddFlow("");
              }}
            >
              Add override
            </button>
          </div>
          {save.error ? <ErrorBox message={save.error.message} /> : null}
          <button type="button" className={buttonClass} disabled={save.isPending} onClick={submit}>
            {save.isPending ? "Saving…" : save.isSuccess ? "Saved" : "Save policy"}
          </button>
        </section>
      </div>
    </div>
  );
}
