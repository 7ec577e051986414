import type { webhookConfig } from "@switchyard/contracts/triggers";
import type { z } from "zod";
import { HttpInputError, setOwn } from "./body";
import { TriggerBindError } from "../listener";

export type WebhookConfig = z.infer<typeof webhookConfig>;

export interface HookBinding {
  flowId: string;
  flowVersion: number;
  nodeId: string;
  config: WebhookConfig;
}

function segments(path: string): string[] {
  return path.split("/").filter(Boolean);
}

/**
 * Live map of webhook paths to the flow versions that serve them. Activation, edits and deactivation
 * swap entries in place, so a change answers on the very next request — no restart, no stale 404s.
 * Segments written `:name` match any value and are passed to the run as path parameters.
 */
export function createHookRegistry() {
  const exact = new Map<string, HookBinding>();
  const patterns: { parts: string[]; binding: HookBinding }[] = [];
  const byFlow = new Map<string, string>();

  const remove = (flowId: string) => {
    const path = byFlow.get(flowId);
    if (path === undefined) return;
    byFlow.delete(flowId);
    exact.delete(path);
    const i = patterns.findIndex((p) => p.binding.flowId === flowId);
    if (i >= 0) patterns.splice(i, 1);
  };

  return {
    /** Binds a flow's webhook; refuses a path another flow already serves. */
    bind(binding: HookBinding): void {
      const path = segments(binding.config.path).join("/");
      const owner = [...byFlow.entries()].find(([f, p]) => p === path && f !== binding.flowId);
      if (owner)
        throw new TriggerBindError(`webhook path /hooks/${path} is already used by flow ${owner[0]}`);
      remove(binding.flowId);
      byFlow.set(binding.flowId, path);
      if (path.split("/").some((s) => s.startsWith(":"))) patterns.push({ parts: path.split("/"), binding });
      else exact.set(path, binding);
    },
    unbind: remove,
    match(path: string): { binding: HookBinding; params: Record<string, string> } | undefined {
      const parts = segments(path);
      const hit = exact.get(parts.join("/"));
      if (hit) return { binding: hit, params: {} };
      for (const p of patterns) {
        if (p.parts.length !== parts.length) continue;
        const params: Record<string, string> = {};
        const ok = p.parts.every((s, i) => {
          if (!s.startsWith(":")) return s === parts[i];
          // Own keys only, as JSON would carry them (a segment may be named `:__proto__`).
          setOwn(params, s.slice(1), decodeSegment(parts[i]!, s.slice(1)));
          return true;
        });
        if (ok) return { binding: p.binding, params };
      }
      return undefined;
    },
    size: () => byFlow.size,
  };
}

export type HookRegistry = ReturnType<typeof createHookRegistry>;

/** A caller's bad percent-encoding is their mistake (400 naming the parameter), not a crash (500). */
function decodeSegment(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpInputError(
      "malformed_path",
      `path parameter "${name}" is not valid percent-encoding: ${segment}`,
    );
  }
}
