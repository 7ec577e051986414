"use client";

import { breakCoalescing } from "./store";
import type { FlowNode } from "@switchyard/contracts";

const input =
  "block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-normal dark:border-slate-700 dark:bg-slate-800";
const label = "space-y-1 text-xs font-medium text-slate-700 dark:text-slate-300";

const num = (v: string) => (v === "" || Number.isNaN(Number(v)) ? undefined : Math.round(Number(v)));

/** Per-node execution settings the engine reads: error handling, retries, time limit, disabled. */
export function NodeSettings({
  node,
  isTrigger,
  edit,
}: {
  node: FlowNode;
  isTrigger: boolean;
  edit(patch: (n: FlowNode) => FlowNode, key: string): void;
}) {
  if (isTrigger) return null;
  const retry = node.retry;
  return (
    <section
      aria-label="Execution settings"
      className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">When it runs</h3>
      <label className={label}>
        On error
        <select
          aria-label="On error"
          value={node.onError}
          onChange={(e) => edit((n) => ({ ...n, onError: e.target.value as FlowNode["onError"] }), "onError")}
          className={input}
        >
          <option value="stop">Stop the run</option>
          <option value="continue">Continue with the next nodes</option>
          <option value="route">Route to the “error” output</option>
        </select>
      </label>
      <div className="grid grid-cols-2 gap-3">
        <label className={label}>
          Time limit (ms)
          <input
            type="number"
            aria-label="Time limit (ms)"
            min={1}
            value={node.timeoutMs ?? ""}
            placeholder="Flow default"
            onChange={(e) => edit((n) => withOptional(n, "timeoutMs", num(e.target.value)), "timeoutMs")}
            onBlur={breakCoalescing}
            className={input}
          />
        </label>
        <label className={label}>
          Attempts
          <input
            type="number"
            aria-label="Attempts"
            min={1}
            max={100}
            value={retry?.maxAttempts ?? ""}
            placeholder="1"
            onChange={(e) => {
              const attempts = num(e.target.value);
              edit(
                (n) =>
                  withOptional(
                    n,
                    "retry",
                    attempts && attempts > 1
                      ? { backoff: "exponential", delayMs: 1000, ...n.retry, maxAttempts: attempts }
                      : undefined,
                  ),
                "retry",
              );
            }}
            onBlur={breakCoalescing}
            className={input}
          />
        </label>
        {retry ? (
          <>
            <label className={label}>
              Delay (ms)
              <input
                type="number"
                aria-label="Retry delay (ms)"
                min={0}
                value={retry.delayMs}
                onChange={(e) =>
                  edit(
                    (n) => ({ ...n, retry: n.retry && { ...n.retry, delayMs: num(e.target.value) ?? 0 } }),
                    "retry",
                  )
                }
                onBlur={breakCoalescing}
                className={input}
              />
            </label>
            <label className={label}>
              Backoff
              <select
                aria-label="Backoff"
                value={retry.backoff ?? "fixed"}
                onChange={(e) =>
                  edit(
                    (n) => ({
                      ...n,
                      retry: n.retry && { ...n.retry, backoff: e.target.value as "fixed" | "exponential" },
                    }),
                    "retry",
                  )
                }
                className={input}
              >
                <option value="fixed">Fixed</option>
                <option value="exponential">Exponential</option>
              </select>
            </label>
          </>
        ) : null}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={node.disabled ?? false}
          onChange={(e) =>
            edit((n) => withOptional(n, "disabled", e.target.checked || undefined), "disabled")
          }
        />
        Disabled (items pass through untouched)
      </label>
    </section>
  );
}

/** Sets or removes an optional key, so an untouched setting never appears in the saved file. */
function withOptional<K extends keyof FlowNode>(
  n: FlowNode,
  key: K,
  value: FlowNode[K] | undefined,
): FlowNode {
  const next = { ...n };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}
