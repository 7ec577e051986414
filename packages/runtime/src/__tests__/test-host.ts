import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isFinishedRunStatus } from "@switchyard/contracts/runs";
import { parseConfig } from "../config";
import { createHost, type Host } from "../host";
import { createHttpServer, listen } from "../http/server";
import { createLogger } from "../logger";
import type { HostExtensions } from "../triggers/registry";

/**
 * A started host on a temp data dir with its hooks served on 127.0.0.1 (no web app). Not seeded unless
 * asked; `nodeTypes` and `triggerListeners` add types beyond the shipped ones.
 */
export async function startTestHost(
  env: Record<string, string> = {},
  opts: { seed?: boolean } & HostExtensions = {},
) {
  const dir = mkdtempSync(path.join(tmpdir(), "sy-host-"));
  const config = parseConfig({
    SWITCHYARD_DATA_DIR: dir,
    SWITCHYARD_SMTP_PORT: "0",
    LOG_LEVEL: "silent",
    ...env,
  });
  const host: Host = await createHost(config, createLogger("silent"), { seed: false, ...opts });
  await host.start();
  const server = createHttpServer(host, { hooks: host.services.webhookHandler });
  const { port } = await listen(server, 0, "127.0.0.1");
  return {
    host,
    dir,
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until the run reaches a terminal status. */
export async function waitForRun(host: Host, runId: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await host.runs.get(runId);
    if (run && isFinishedRunStatus(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A sync webhook at /hooks/<path> → data.set (`v` = value, nothing else kept) → respond with the item. */
export const setFieldFlow = (hookPath: string, value: string) => ({
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path: hookPath, responseMode: "sync" } },
    { id: "set", type: "data.set", config: { fields: [{ name: "v", value }], keepOnlySet: true } },
    { id: "respond", type: "webhook.respond", config: { status: 200, body: "=item" } },
  ],
  edges: [
    { from: { node: "hook", port: "main" }, to: { node: "set", port: "main" } },
    { from: { node: "set", port: "main" }, to: { node: "respond", port: "main" } },
  ],
});

/** Creates and activates one flow per entry, named after its key. */
export async function activateFlows(host: Host, flows: Record<string, unknown>): Promise<void> {
  for (const [name, definition] of Object.entries(flows)) {
    const { id } = await host.flows.create({ name, definition });
    await host.control.setActive(id, true);
  }
}

/** POSTs a JSON body to /hooks/<path>. */
export const postHook = (baseUrl: string, hookPath: string, body: unknown) =>
  fetch(`${baseUrl}/hooks/${hookPath}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** How a run ended, as the run row records it. */
export const runOutcome = (host: Host, runId: string) =>
  sqliteOf(host)
    .prepare(`SELECT status, errorCode, errorNodeId, errorMessage FROM "Run" WHERE id = ?`)
    .get(runId);

/** The raw SQLite connection of a test host (every test host here is on SQLite). */
export function sqliteOf(host: Host) {
  if (host.db.kind !== "sqlite") throw new Error("this test expects a SQLite host");
  return host.db.sql;
}

/**
 * Points the host's agents at an LLM server (the scripted one in tests): an `llmProvider` credential holding
 * `apiKey` for `allowedHosts`, the provider setting with `models`, and the agents reloaded. Returns the
 * credential's id.
 */
export async function connectLlm(
  host: Host,
  o: { baseUrl: string; models: Record<string, string>; apiKey: string; allowedHosts?: string },
): Promise<string> {
  const cred = await host.services.vault.create({
    name: "LLM",
    type: "llmProvider",
    data: { apiKey: o.apiKey, allowedHosts: o.allowedHosts ?? "127.0.0.1" },
  });
  await host.settings.set("llm.provider", { baseUrl: o.baseUrl, credentialId: cred.id, models: o.models });
  await host.services.reloadAgents();
  return cred.id;
}

/** webhook (sync, at `path`) → an agent node `agentId` → webhook.respond with the agent's item. */
export const agentWebhookFlow = (path: string, agentId: string, config: Record<string, unknown>) => ({
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path, responseMode: "sync" } },
    { id: agentId, type: "agent", config },
    { id: "reply", type: "webhook.respond", config: { status: 200, body: "=item" } },
  ],
  edges: [
    { from: { node: "hook", port: "main" }, to: { node: agentId, port: "main" } },
    { from: { node: agentId, port: "main" }, to: { node: "reply", port: "main" } },
  ],
});
