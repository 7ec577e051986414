import { errorPayload } from "@switchyard/contracts/triggers";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "../__tests__/test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
let finishedEvents = 0;
beforeEach(async () => {
  t = await startTestHost({ SWITCHYARD_BASE_URL: "https://flows.example.test" });
  finishedEvents = 0;
  t.host.services.events.on("run.finished", () => finishedEvents++);
});
afterEach(async () => {
  await t.close();
});

/** manual → stop with an error: every run of it fails at node "boom". */
const failingFlow = (settings: Record<string, unknown>) => ({
  nodes: [
    { id: "start", type: "trigger.manual" },
    { id: "boom", type: "flow.stop", config: { outcome: "error", message: "order has no customer" } },
  ],
  edges: [{ from: { node: "start" }, to: { node: "boom" } }],
  settings,
});
const errorFlow = (settings: Record<string, unknown> = {}, fails = false) => ({
  nodes: [
    { id: "failure", type: "trigger.error" },
    fails
      ? { id: "alert", type: "flow.stop", config: { outcome: "error", message: "alerting is down" } }
      : { id: "alert", type: "flow.noop" },
  ],
  edges: [{ from: { node: "failure" }, to: { node: "alert" } }],
  settings,
});

async function runsOf(flowId: string) {
  return (await t.host.runs.list({ flowId })).runs;
}

/** Waits until every run the failure dispatch starts is admitted and finished. */
/**
 * Until no run is live and every finished run's error-flow dispatch has ended. `run.finished` is emitted
 * just before the dispatch starts, so counting those events tells when every dispatch has begun; no sleep
 * decides the outcome.
 */
async function settle() {
  for (let i = 0; i < 400; i++) {
    const { runs } = await t.host.runs.list({});
    const live = runs.some((r) => ["queued", "running"].includes(r.status));
    if (!live && finishedEvents >= runs.length) {
      await t.host.services.errorFlows.settled();
      const again = await t.host.runs.list({});
      if (again.runs.length === runs.length) return;
    }
    await new Promise((r) => setTimeout(r, 25)); // a poll interval only: the exit condition is state
  }
  throw new Error("runs did not settle");
}

describe("error flows", () => {
  it("starts the error flow on channel error with the failed run's flow, run, node, error and link", async () => {
    const handler = await t.host.flows.create({ name: "On failure", definition: errorFlow() });
    const { id } = await t.host.flows.create({
      name: "Orders",
      definition: failingFlow({ errorFlowId: handler.id }),
    });
    const { runId } = await t.host.control.startRun(id);
    expect((await waitForRun(t.host, runId)).status).toBe("failed");
    await settle();

    const [errorRun] = await runsOf(handler.id);
    expect(errorRun).toMatchObject({ channel: "error", status: "succeeded" });
    const run = await waitForRun(t.host, errorRun!.id);
    const item = JSON.parse(run.steps.find((s) => s.nodeId === "failure")!.output!).main[0].json;
    expect(item).toEqual({
      flow: { id, name: "Orders" },
      run: {
        id: runId,
        status: "failed",
        channel: "manual",
        url: `https://flows.example.test/runs/${runId}`,
      },
      node: { id: "boom" },
      error: { code: "input_invalid", message: "order has no customer" },
    });
    expect(errorPayload.safeParse(item).success).toBe(true);
  });

  it("starts nothing when the error flow itself fails, even when it names itself as its error flow", async () => {
    const handler = await t.host.flows.create({ name: "On failure", definition: errorFlow({}, true) });
    await t.host.flows.saveVersion(handler.id, errorFlow({ errorFlowId: handler.id }, true));
    const { id } = await t.host.flows.create({
      name: "Orders",
      definition: failingFlow({ errorFlowId: handler.id }),
    });
    await t.host.control.startRun(id);
    await settle();
    const runs = await runsOf(handler.id);
    expect(runs.map((r) => [r.channel, r.status])).toEqual([["error", "failed"]]);
  });

  it("does not start a flow named as its own error flow when a run of it fails", async () => {
    // An error flow run by hand (channel manual) that fails and names itself: the self check stops it.
    const { id } = await t.host.flows.create({ name: "Loop", definition: errorFlow({}, true) });
    await t.host.flows.saveVersion(id, errorFlow({ errorFlowId: id }, true));
    await t.host.control.startRun(id);
    await settle();
    expect((await runsOf(id)).map((r) => r.channel)).toEqual(["manual"]);
  });
});

describe("failure e-mail", () => {
  let smtp: SMTPServer;
  let port = 0;
  const received: { mail: ParsedMail; to: string[] }[] = [];
  beforeEach(async () => {
    received.length = 0;
    smtp = new SMTPServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      onData(stream, session, cb) {
        simpleParser(stream).then((mail) => {
          received.push({ mail, to: session.envelope.rcptTo.map((r) => r.address) });
          cb();
        }, cb);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as { port: number }).port;
  });
  afterEach(async () => {
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it("mails the chosen addresses through the SMTP credential with the error and the run's link", async () => {
    await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
    await t.host.services.reloadHttp();
    const cred = await t.host.services.vault.create({
      name: "Mail",
      type: "smtp",
      data: { host: "127.0.0.1", port: String(port), from: "alerts@example.test", allowedHosts: "127.0.0.1" },
    });
    const { id } = await t.host.flows.create({
      name: "Orders",
      definition: failingFlow({ failureEmail: { credentialId: cred.id, to: ["ops@example.test"] } }),
    });
    const { runId } = await t.host.control.startRun(id);
    await waitForRun(t.host, runId);
    for (let i = 0; i < 200 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 25));

    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(["ops@example.test"]);
    expect(received[0]!.mail.subject).toBe('Switchyard: a run of "Orders" failed');
    expect(received[0]!.mail.text).toContain('at node "boom"');
    expect(received[0]!.mail.text).toContain("input_invalid: order has no customer");
    expect(received[0]!.mail.text).toContain(`https://flows.example.test/runs/${runId}`);
  });
});
