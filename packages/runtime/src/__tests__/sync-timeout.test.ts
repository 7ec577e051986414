import { createServer, type Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
let slow: Server;
let slowUrl: string;
beforeEach(async () => {
  t = await startTestHost();
  slow = createServer((_req, res) => setTimeout(() => res.end('{"late":true}'), 800));
  await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
  slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}/slow`;
  await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
});
afterEach(async () => {
  slow.closeAllConnections();
  await new Promise((r) => slow.close(r));
  await t.close();
});

describe("sync webhook timeout", () => {
  it("answers 504 with the run id when the flow is too slow, and the run still completes", async () => {
    await t.host.services.reloadHttp();
    const flow = {
      nodes: [
        {
          id: "hook",
          type: "trigger.webhook",
          config: { path: "slow", responseMode: "sync", syncTimeoutMs: 200 },
        },
        { id: "call", type: "http.request", config: { method: "GET", url: slowUrl } },
        { id: "reply", type: "webhook.respond", config: { status: 200, body: "=item" } },
      ],
      edges: [
        { from: { node: "hook", port: "main" }, to: { node: "call", port: "main" } },
        { from: { node: "call", port: "main" }, to: { node: "reply", port: "main" } },
      ],
    };
    const { id } = await t.host.flows.create({ name: "Slow", definition: flow });
    await t.host.control.setActive(id, true);
    const res = await fetch(`${t.url}/hooks/slow`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(504);
    const body = (await res.json()) as { error: { code: string; message: string; runId: string } };
    expect(body.error).toMatchObject({
      code: "timeout",
      message: "the flow did not respond within 200 ms; the run goes on",
    });
    const run = await waitForRun(t.host, body.error.runId);
    expect(run.status).toBe("succeeded");
    expect(run.steps.map((s) => s.nodeId)).toEqual(["hook", "call", "reply"]);
  });
});
