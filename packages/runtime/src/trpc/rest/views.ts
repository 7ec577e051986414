import type { FlowSummary } from "@switchyard/db";
import type { z } from "zod";
import type { flowSummary, runDetail, runSummary, step } from "./schemas";

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());

/** Stored JSON back to a value; a field that somehow is not JSON is shown as the text it is. */
function parseStored(json: string | null | undefined): unknown {
  if (json == null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

export function flowView(f: FlowSummary): z.input<typeof flowSummary> {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    active: f.active,
    currentVersion: f.currentVersion,
    activeVersion: f.activeVersion,
    createdAt: iso(f.createdAt)!,
    updatedAt: iso(f.updatedAt)!,
  };
}

export interface RunRow {
  id: string;
  flowId: string;
  flowVersion: number;
  status: string;
  channel: string;
  createdAt: Date;
  startedAt: Date | null;
  endedAt: Date | null;
  durationMs: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  errorNodeId: string | null;
  flow: { name: string };
}

export interface StepRow {
  stepId: string;
  nodeId: string;
  visit: number;
  attempt: number;
  status: string;
  port: string | null;
  reason: string | null;
  input: string | null;
  output: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  logs: string | null;
  truncated: boolean;
  startedAt: Date | null;
  endedAt: Date | null;
  durationMs: number | null;
}

type RunStatus = z.input<typeof runSummary>["status"];
type RunChannel = z.input<typeof runSummary>["channel"];

export function runView(r: RunRow): z.input<typeof runSummary> {
  return {
    id: r.id,
    flowId: r.flowId,
    flowName: r.flow.name,
    flowVersion: r.flowVersion,
    status: r.status as RunStatus,
    channel: r.channel as RunChannel,
    createdAt: iso(r.createdAt)!,
    startedAt: iso(r.startedAt),
    endedAt: iso(r.endedAt),
    durationMs: r.durationMs,
    error: r.errorMessage ? { code: r.errorCode, message: r.errorMessage, nodeId: r.errorNodeId } : null,
  };
}

// The stack of a node error stays in the database for operators; HTTP answers never carry stacks.
export function stepView(s: StepRow): z.input<typeof step> {
  return {
    stepId: s.stepId,
    nodeId: s.nodeId,
    visit: s.visit,
    attempt: s.attempt,
    status: s.status,
    port: s.port,
    reason: s.reason,
    input: parseStored(s.input),
    output: parseStored(s.output),
    error: s.errorMessage ? { code: s.errorCode, message: s.errorMessage } : null,
    logs: parseStored(s.logs),
    truncated: s.truncated,
    startedAt: iso(s.startedAt),
    endedAt: iso(s.endedAt),
    durationMs: s.durationMs,
  };
}

export function runDetailView(
  r: RunRow & {
    attempts: number;
    rerunOf: string | null;
    triggerPayload: string;
    output: string | null;
    steps: StepRow[];
  },
): z.input<typeof runDetail> {
  return {
    ...runView(r),
    attempts: r.attempts,
    rerunOf: r.rerunOf,
    payload: parseStored(r.triggerPayload),
    output: parseStored(r.output),
    steps: r.steps.map(stepView),
  };
}
