"use client";

import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { useTRPC } from "@/trpc/client";
import { ListenTest } from "./ListenTest";
import { useEditor } from "./store";
import type { FlowNode } from "@switchyard/contracts";

/** What a trigger listens on, shown above its form. Keyed by type: this is editor UI, not node definition. */
const panels: Record<string, (p: { node: FlowNode }) => ReactNode> = {
  "trigger.webhook": WebhookInfo,
  "trigger.email": EmailInfo,
  "trigger.cron": CronInfo,
  "trigger.imap": ImapInfo,
};

export function TriggerInfo({ node }: { node: FlowNode }) {
  const Panel = panels[node.type];
  return Panel ? <Panel node={node} /> : null;
}

function Box({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="space-y-2 rounded-lg border border-amber-200 bg-amber-50/60 p-3 dark:border-amber-900 dark:bg-amber-950/30"
    >
      <h3 className="text-xs font-semibold uppercase tracking-wide text-amber-800 dark:text-amber-300">
        {title}
      </h3>
      {children}
    </section>
  );
}

function CopyRow({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <div className="text-[11px] font-medium text-slate-600 dark:text-slate-400">{label}</div>
      <div className="flex items-center gap-1.5">
        <code
          data-testid={`url-${label.toLowerCase().replace(/\W+/g, "-")}`}
          className="min-w-0 flex-1 truncate rounded bg-white px-2 py-1 font-mono text-xs dark:bg-slate-800"
          title={value}
        >
          {value}
        </code>
        <button
          type="button"
          aria-label={`Copy ${label}`}
          onClick={async () => {
            await navigator.clipboard.writeText(value).catch(() => undefined);
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          }}
          className="rounded border border-slate-300 px-2 py-1 text-xs hover:bg-white dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}

function useSystemInfo() {
  const trpc = useTRPC();
  return useQuery(trpc.system.info.queryOptions(undefined, { staleTime: 60_000 }));
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

function WebhookInfo({ node }: { node: FlowNode }) {
  const info = useSystemInfo();
  const path = str(node.config.path).replace(/^\/+/, "");
  const base = (info.data?.baseUrl ?? "").replace(/\/+$/, "");
  return (
    <Box title="Webhook URLs">
      {path ? (
        <>
          <CopyRow label="Production URL" value={`${base}/hooks/${path}`} />
          <CopyRow label="Test URL" value={`${base}/hooks-test/${path}`} />
          <p className="text-[11px] text-slate-500 dark:text-slate-400">
            The production URL starts runs while the flow is active; the test URL captures one request while
            listening.
          </p>
          <ListenTest node={node} testUrl={`${base}/hooks-test/${path}`} />
        </>
      ) : (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Set a path below, e.g. orders/created, to get this webhook’s URLs.
        </p>
      )}
    </Box>
  );
}

function EmailInfo({ node }: { node: FlowNode }) {
  const info = useSystemInfo();
  const local = str(node.config.localPart);
  const domain = info.data?.smtp.domain ?? "";
  return (
    <Box title="Inbound address">
      {local ? (
        <CopyRow label="Address" value={`${local}@${domain}`} />
      ) : (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Choose the part before the @ below; mail to {`<local part>@${domain}`} then starts this flow.
        </p>
      )}
    </Box>
  );
}

function CronInfo({ node }: { node: FlowNode }) {
  const trpc = useTRPC();
  const expression = str(node.config.expression).trim();
  const timezone = str(node.config.timezone) || undefined;
  // A trigger without its own zone runs in the flow's: preview it there too.
  const flowTimezone = useEditor((s) => s.doc.settings.timezone);
  const zone = timezone || flowTimezone || "UTC";
  const described = useQuery(
    trpc.catalogue.describeCron.queryOptions(
      { expression, timezone, flowTimezone },
      { enabled: expression.length > 0 && !expression.startsWith("="), retry: false },
    ),
  );
  return (
    <Box title="Schedule">
      {!expression ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Enter a cron expression below, e.g. 0 9 * * 1-5 for 09:00 on weekdays.
        </p>
      ) : described.error ? (
        <p className="text-xs text-red-600 dark:text-red-400">{described.error.message}</p>
      ) : described.data ? (
        <div className="space-y-1.5">
          <p data-testid="cron-description" className="text-sm">
            {described.data.description}
          </p>
          <div className="text-[11px] font-medium text-slate-600 dark:text-slate-400">Next runs ({zone})</div>
          <ul data-testid="cron-next" className="space-y-0.5 font-mono text-xs">
            {described.data.next.map((t) => (
              <li key={t}>
                {new Date(t).toLocaleString(undefined, {
                  timeZone: zone,
                  dateStyle: "medium",
                  timeStyle: "short",
                })}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-xs text-slate-500">Working out the next runs…</p>
      )}
    </Box>
  );
}

function ImapInfo({ node }: { node: FlowNode }) {
  const mailbox = str(node.config.mailbox) || "INBOX";
  const moveTo = str(node.config.moveTo);
  const every = typeof node.config.pollSeconds === "number" ? node.config.pollSeconds : 60;
  return (
    <Box title="Mailbox">
      <p data-testid="imap-summary" className="text-xs text-slate-700 dark:text-slate-300">
        Each unread message in <code className="font-mono">{mailbox}</code> starts a run, then is{" "}
        {node.config.after === "move" ? (
          <>
            moved to <code className="font-mono">{moveTo || "…"}</code>
          </>
        ) : (
          "marked as read"
        )}{" "}
        once the run is queued. Checked every {every} s, and at once on new mail when the server supports
        IDLE.
      </p>
      <p className="text-[11px] text-slate-500 dark:text-slate-400">
        The flow list shows whether the mailbox is reachable, and why not.
      </p>
    </Box>
  );
}
