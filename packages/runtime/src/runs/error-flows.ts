import { FlowSettings } from "@switchyard/contracts/flow";
import type { ErrorPayload } from "@switchyard/contracts/triggers";
import type { FlowRepo, PrismaClient } from "@switchyard/db";
import { createExpressionEvaluator, type HttpClient, InFlight, type SecretsReader } from "@switchyard/engine";
import { errorTrigger, parseConfig, sendEmailNode } from "@switchyard/nodes";
import type { RunFinished } from "../events";
import type { Logger } from "../logger";
import type { NewRun } from "../queue/types";
import type { FlowCache } from "./flow-cache";

interface FailedRow {
  flowVersion: number;
  errorCode: string | null;
  errorMessage: string | null;
  errorNodeId: string | null;
}

/**
 * What happens after a run fails or times out: the flow's error flow (settings.errorFlowId) is started on
 * channel `error` with the failure as its payload, and the failure e-mail goes out. Runs on channel
 * `error` never do either (an error flow that fails must not start itself, or another error flow, in a
 * loop), nor do sub-flow runs (the calling run fails too and alerts for both).
 */
export function createErrorFlows(d: {
  prisma: PrismaClient;
  flows: FlowRepo;
  cache: FlowCache;
  startRun: (run: NewRun) => Promise<string>;
  secrets: SecretsReader;
  http: HttpClient;
  baseUrl: string;
  log: Logger;
}) {
  // Through Prisma, not a prepared statement: once per failed run, and the same on SQLite and PostgreSQL.
  const failedRow = (id: string): Promise<FailedRow | null> =>
    d.prisma.run.findUnique({
      where: { id },
      select: { flowVersion: true, errorCode: true, errorMessage: true, errorNodeId: true },
    });

  /** The error flow's run id, or undefined when none was started (the reason is logged). */
  async function startErrorFlow(errorFlowId: string, f: RunFinished, payload: ErrorPayload) {
    if (errorFlowId === f.flowId) {
      d.log.warn({ flowId: f.flowId }, "a flow's error flow is itself; not started (it would loop)");
      return undefined;
    }
    const target = await d.flows.get(errorFlowId);
    if (!target) {
      d.log.warn({ flowId: f.flowId, errorFlowId }, "the error flow no longer exists; not started");
      return undefined;
    }
    const compiled = await d.cache.get(target.id, target.currentVersion).catch(() => undefined);
    if (!compiled?.flow.nodes.some((n) => n.type === errorTrigger.type)) {
      d.log.warn({ flowId: f.flowId, errorFlowId }, "the error flow has no error trigger; not started");
      return undefined;
    }
    return d.startRun({
      flowId: target.id,
      flowVersion: target.currentVersion,
      channel: errorTrigger.channel,
      payloadJson: JSON.stringify(payload),
    });
  }

  async function sendFailureEmail(to: string[], credentialId: string, payload: ErrorPayload) {
    const where = payload.node ? ` at node "${payload.node.id}"` : "";
    const config = parseConfig(sendEmailNode.config, {
      credentialId,
      to,
      subject: `Switchyard: a run of "${payload.flow.name}" ${payload.run.status.replace("_", " ")}`,
      text: [
        `Flow: ${payload.flow.name} (${payload.flow.id})`,
        `Run: ${payload.run.id} (${payload.run.channel}), ${payload.run.status.replace("_", " ")}${where}`,
        `Error: ${payload.error.code}: ${payload.error.message}`,
        "",
        `Open the run: ${payload.run.url}`,
      ].join("\n"),
    });
    // The same node a flow uses: the credential's allowed hosts and the outbound address guard apply.
    await sendEmailNode.execute({
      config,
      input: [{ json: {} }],
      ctx: {
        nodeId: "failure-email",
        run: {
          id: payload.run.id,
          flowId: payload.flow.id,
          startedAt: new Date().toISOString(),
          channel: "error",
        },
        log: { info() {}, warn() {}, error() {} },
        signal: AbortSignal.timeout(60_000),
        now: () => new Date(),
        expressions: createExpressionEvaluator(),
        secrets: d.secrets,
        http: d.http,
      },
    });
  }

  const inFlight = new InFlight();
  return {
    /** Called for every finished run; resolves when the error flow is admitted and the e-mail sent. */
    runFinished(f: RunFinished): Promise<{ errorRunId?: string; emailed?: boolean }> {
      return inFlight.track(dispatch(f));
    },
    /** Resolves when every dispatch started so far has ended (tests wait on it instead of sleeping). */
    async settled(): Promise<void> {
      await inFlight.settled();
    },
  };

  async function dispatch(f: RunFinished): Promise<{ errorRunId?: string; emailed?: boolean }> {
    if (f.status !== "failed" && f.status !== "timed_out") return {};
    if (f.channel === "error" || f.channel === "subflow") return {};
    const row = await failedRow(f.runId);
    if (!row) return {};
    // Read, not compiled: a run that failed because its version does not validate still alerts.
    const version = await d.flows.getVersion(f.flowId, row.flowVersion);
    const parsed = FlowSettings.safeParse(
      (version?.definition as { settings?: unknown } | null)?.settings ?? {},
    );
    const settings = parsed.success ? parsed.data : undefined;
    if (!settings?.errorFlowId && !settings?.failureEmail) return {};
    const flow = await d.flows.get(f.flowId);
    const payload: ErrorPayload = {
      flow: { id: f.flowId, name: flow?.name ?? f.flowId },
      run: { id: f.runId, status: f.status, channel: f.channel, url: `${d.baseUrl}/runs/${f.runId}` },
      node: row.errorNodeId ? { id: row.errorNodeId } : null,
      error: { code: row.errorCode ?? "unknown", message: row.errorMessage ?? "" },
    };
    const result: { errorRunId?: string; emailed?: boolean } = {};
    if (settings.errorFlowId) result.errorRunId = await startErrorFlow(settings.errorFlowId, f, payload);
    if (settings.failureEmail) {
      try {
        await sendFailureEmail(settings.failureEmail.to, settings.failureEmail.credentialId, payload);
        result.emailed = true;
      } catch (err) {
        result.emailed = false;
        d.log.error(
          { flowId: f.flowId, runId: f.runId, reason: (err as Error).message },
          "the failure e-mail could not be sent",
        );
      }
    }
    return result;
  }
}

export type ErrorFlows = ReturnType<typeof createErrorFlows>;
