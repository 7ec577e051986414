"use client";

import type { RunChannel } from "@switchyard/contracts/runs";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { PolicyPreview } from "@/components/agents/policy-preview";
import { buttonClass, ErrorBox, secondaryButtonClass } from "@/components/page";
import { useTRPC } from "@/trpc/client";
import { Notice, Section, selectClass } from "./ui";

type Level = "none" | "read_only" | "write" | "execute" | "dangerous";
type Draft = Partial<Record<RunChannel, Level>>;

const channelHelp: Record<RunChannel, string> = {
  webhook: "anyone who can reach a webhook URL",
  email: "anyone who can send mail to a trigger address",
  cron: "schedules you set up",
  api: "REST API calls with an API key",
  manual: "a signed-in person pressing Run",
  error: "another flow's failed run, carrying that run's (possibly hostile) data",
  subflow: "inherits the parent run's channel; this level only applies when there is none",
};

/** Settings › Agent policy: the channel ceilings table, reset to safe defaults, and a live preview. */
export function PolicyEditor() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const policy = useQuery(trpc.settings.policy.get.queryOptions());
  const agents = useQuery(trpc.agent.list.queryOptions());
  const [draft, setDraft] = useState<Draft>({});
  const [agentId, setAgentId] = useState("flow_memory_agent");
  const [channel, setChannel] = useState<RunChannel>("webhook");
  useEffect(() => {
    // Maps stored before the `error` channel existed lack it; the runtime treats that as read_only.
    if (policy.data) setDraft({ error: "read_only", ...(policy.data.ceilings as Draft) });
  }, [policy.data]);

  const refresh = () => qc.invalidateQueries({ queryKey: trpc.settings.policy.pathKey() });
  // Only the latest action's confirmation is shown.
  const save = useMutation(
    trpc.settings.policy.set.mutationOptions({
      onSuccess: () => {
        reset.reset();
        return refresh();
      },
    }),
  );
  const reset = useMutation(
    trpc.settings.policy.reset.mutationOptions({
      onSuccess: () => {
        save.reset();
        return refresh();
      },
    }),
  );
  const channels = (policy.data?.channels ?? []) as RunChannel[];
  const levels = (policy.data?.levels ?? []) as Level[];
  const complete = channels.filter((c) => c !== "subflow").every((c) => draft[c]);
  const ceilings = draft as Required<Omit<Draft, "subflow">> & { subflow?: Level };
  const preview = useQuery(
    trpc.settings.policy.preview.queryOptions(
      { agentId, channel, ceilings },
      { enabled: complete && !!agents.data, placeholderData: keepPreviousData },
    ),
  );
  const stored = policy.data?.ceilings as Draft | undefined;
  const dirty = !!stored && channels.some((c) => (stored[c] ?? "") !== (draft[c] ?? ""));

  return (
    <div className="space-y-6">
      {policy.error ? <ErrorBox message={policy.error.message} /> : null}
      <Section title="Channel ceilings">
        <p className="text-sm text-slate-500 dark:text-slate-400">
          The most an agent may do when a run was started from each channel. Tools that need more are denied
          and left out of the prompt. Levels: none &lt; read_only &lt; write &lt; execute &lt; dangerous.
          Tools that reach the network (http_get) also need a channel ceiling of write or above, so a webhook
          or e-mail can never make an agent send data to an arbitrary host under the read_only default.
        </p>
        {policy.data && !policy.data.stored ? (
          <Notice>No ceilings are stored yet; these are the safe defaults the runtime applies.</Notice>
        ) : null}
        <table className="w-full text-sm" aria-label="Channel ceilings">
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-500">
              <th className="py-2 pr-4 font-semibold">Channel</th>
              <th className="py-2 pr-4 font-semibold">Ceiling</th>
              <th className="py-2 pr-4 font-semibold">Safe default</th>
              <th className="py-2 font-semibold">Who can start it</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {channels.map((c) => (
              <tr key={c}>
                <td className="py-2 pr-4 font-mono">{c}</td>
                <td className="py-2 pr-4">
                  <select
                    aria-label={`Ceiling for ${c}`}
                    className={selectClass}
                    value={draft[c] ?? ""}
                    onChange={(e) =>
                      setDraft({ ...draft, [c]: (e.target.value || undefined) as Level | undefined })
                    }
                  >
                    {c === "subflow" ? <option value="">inherit parent (read_only if none)</option> : null}
                    {levels.map((l) => (
                      <option key={l} value={l}>
                        {l}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="py-2 pr-4 font-mono text-slate-500">
                  {policy.data?.defaults[c] ?? "inherit"}
                </td>
                <td className="py-2 text-slate-500">{channelHelp[c]}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {draft.webhook === "dangerous" || draft.email === "dangerous" ? (
          <Notice tone="warning">
            Webhooks and e-mail carry text from outside. A dangerous ceiling there lets anyone who can reach
            the trigger steer an agent's most powerful tools.
          </Notice>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className={buttonClass}
            disabled={!complete || !dirty || save.isPending}
            onClick={() => save.mutate({ ceilings })}
          >
            {save.isPending ? "Saving…" : "Save ceilings"}
          </button>
          <button
            type="button"
            className={secondaryButtonClass}
            disabled={reset.isPending}
            onClick={() => reset.mutate()}
          >
            Reset to safe defaults
          </button>
        </div>
        <div aria-live="polite">
          {save.isSuccess && !dirty ? (
            <div role="status">
              <Notice tone="success">Saved. Agent steps use these ceilings from now on.</Notice>
            </div>
          ) : null}
          {reset.isSuccess && !dirty ? (
            <div role="status">
              <Notice tone="success">Reset to the safe defaults.</Notice>
            </div>
          ) : null}
          {save.error ? <ErrorBox message={save.error.message} /> : null}
          {reset.error ? <ErrorBox message={reset.error.message} /> : null}
        </div>
      </Section>

      <Section title="Preview" label="Policy preview">
        <p className="text-sm text-slate-500 dark:text-slate-400">
          What an agent would be allowed with the ceilings above{dirty ? " (unsaved)" : ""}.
        </p>
        <div className="flex flex-wrap gap-3">
          <label className="flex items-center gap-2 text-sm">
            Agent
            <select className={selectClass} value={agentId} onChange={(e) => setAgentId(e.target.value)}>
              {agents.data?.agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.id}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm">
            Channel
            <select
              className={selectClass}
              value={channel}
              onChange={(e) => setChannel(e.target.value as RunChannel)}
            >
              {channels.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
        </div>
        {preview.error ? <ErrorBox message={preview.error.message} /> : null}
        {preview.data ? <PolicyPreview preview={preview.data} /> : null}
      </Section>
    </div>
  );
}
