/** Which tools a run on each channel would give one agent, from the runtime's own policy sessions. */

export interface ChannelAccess {
  channel: string;
  allowedPermission: string;
  allowed: string[];
  hidden: string[];
  denied: string[];
}

const label: Record<string, string> = {
  webhook: "Webhook",
  email: "E-mail",
  cron: "Cron",
  api: "API",
  manual: "Manual",
};

const tone = {
  allowed: "bg-emerald-50 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  denied: "bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200",
} as const;

/**
 * Rows: the tools the agent lists (allowed or denied somewhere); columns: channels. Tools it does not list
 * are hidden on every channel and only counted, so the table stays about what the agent can reach.
 */
export function ToolAccess({ agentId, access }: { agentId: string; access: ChannelAccess[] }) {
  const tools = [...new Set(access.flatMap((c) => [...c.allowed, ...c.denied]))].sort();
  if (tools.length === 0) {
    return (
      <p className="text-sm text-slate-400" data-testid="tool-access-none">
        no tools on any channel
      </p>
    );
  }
  const hidden = access[0]?.hidden.length ?? 0;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-xs" data-testid="tool-access" aria-label={`Tool access of ${agentId}`}>
        <thead>
          <tr className="text-left text-slate-500">
            <th className="py-1 pr-2 font-normal">Tool</th>
            {access.map((c) => (
              <th key={c.channel} className="px-1 py-1 font-normal" title={`ceiling ${c.allowedPermission}`}>
                {label[c.channel] ?? c.channel}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr key={tool} className="border-t border-slate-100 dark:border-slate-800">
              <td className="py-1 pr-2 font-mono">{tool}</td>
              {access.map((c) => {
                const state = c.allowed.includes(tool) ? "allowed" : "denied";
                return (
                  <td key={c.channel} className="px-1 py-1">
                    <span
                      data-testid={`access-${tool}-${c.channel}`}
                      title={
                        state === "denied"
                          ? `above the ${c.channel} ceiling (${c.allowedPermission})`
                          : undefined
                      }
                      className={`rounded px-1.5 py-0.5 ${tone[state]}`}
                    >
                      {state}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {hidden > 0 ? (
        <p className="mt-1 text-xs text-slate-400" data-testid="tool-access-hidden">
          {hidden} other tool{hidden === 1 ? "" : "s"} hidden on every channel (not in its tool list)
        </p>
      ) : null}
    </div>
  );
}
