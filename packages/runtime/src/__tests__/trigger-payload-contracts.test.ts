import { registry } from "@switchyard/nodes";
import nodemailer from "nodemailer";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createFakeClock } from "../triggers/cron/fake-clock";
import { createCronScheduler } from "../triggers/cron/scheduler";
import { createMemoryStore } from "../triggers/cron/test-harness";
import { exampleOf, shapeOf } from "../triggers/payload-shape";
import { startTestHost, waitForRun } from "./test-host";

/**
 * Each trigger declares its payload (packages/contracts); these runs go through the runtime's real
 * doors and the item the trigger hands the flow must have exactly the declared keys, values valid
 * under the declared (strict) schema — an example derived from the schema names every key.
 */
let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost({ SWITCHYARD_SMTP_DOMAIN: "flows.test" });
});
afterEach(async () => {
  await t.close();
});

const declared = (type: string): z.ZodType => {
  const def = registry.get(type);
  if (def?.kind !== "trigger") throw new Error(`${type} is not a trigger`);
  return def.payload;
};

/** A flow of only this trigger, active: its run's one step is the trigger's. */
async function triggerOnlyFlow(type: string, config: Record<string, unknown>, active = true) {
  const definition = { nodes: [{ id: "trigger", type, config }], edges: [] };
  const { id } = await t.host.flows.create({ name: type, definition });
  if (active) await t.host.control.setActive(id, true);
  return id;
}

/** The trigger item's json of a finished run, checked to be the payload the run row stored. */
async function triggerItem(runId: string): Promise<unknown> {
  const run = await waitForRun(t.host, runId);
  expect(run.status).toBe("succeeded");
  const step = run.steps.find((s) => s.nodeId === "trigger");
  const ports = JSON.parse(step?.output ?? "{}") as Record<string, { json: unknown }[]>;
  expect(Object.keys(ports)).toEqual(["main"]);
  expect(ports.main).toHaveLength(1);
  return ports.main?.[0]?.json;
}

async function onlyRunOf(flowId: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { runs } = await t.host.runs.list({ flowId });
    if (runs[0]) return runs[0].id;
    if (Date.now() > deadline) throw new Error(`no run of ${flowId}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Same declared keys as the example (nested), and valid under the strict schema. */
function expectDeclaredShape(schema: z.ZodType, emitted: unknown) {
  const example = exampleOf(schema);
  expect(schema.parse(example)).toEqual(example);
  expect(shapeOf(schema, emitted)).toEqual(shapeOf(schema, example));
  expect(schema.parse(emitted)).toEqual(emitted);
}

describe("every trigger emits exactly the payload it declares", () => {
  it("webhook: a real HTTP call through the hooks handler, path parameters included", async () => {
    const schema = declared("trigger.webhook");
    const flowId = await triggerOnlyFlow("trigger.webhook", { path: "orders/:id" });
    const res = await fetch(`${t.url}/hooks/orders/42?a=1&b=2&b=3`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ref": "A-42" },
      body: JSON.stringify({ qty: 2 }),
    });
    expect(res.status).toBe(202);
    const { runId } = (await res.json()) as { runId: string };
    const run = await waitForRun(t.host, runId);
    expect(run.flowId).toBe(flowId);
    const item = await triggerItem(runId);
    expectDeclaredShape(schema, item);
    expect(item).toMatchObject({
      method: "POST",
      path: "/hooks/orders/42",
      params: { id: "42" },
      query: { a: "1", b: ["2", "3"] },
      body: { qty: 2 },
    });
    expect(JSON.parse(run.triggerPayload)).toEqual(item);
  });

  // Over 10 MiB goes through SMTP and mailparser: seconds on a busy machine, hence the longer budget.
  it("e-mail: a real message through the runtime's SMTP listener, with a stored and a dropped attachment", async () => {
    const schema = declared("trigger.email");
    const flowId = await triggerOnlyFlow("trigger.email", { localPart: "orders" });
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: t.host.services.smtpPort(),
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: '"Ada Lovelace" <ada@example.com>',
      to: "orders+urgent@flows.test",
      cc: "audit@example.org",
      subject: "Order 42",
      date: new Date("2024-05-06T07:08:09Z"),
      messageId: "<msg-1@example.com>",
      inReplyTo: "<msg-0@example.com>",
      text: "Please ship order 42.",
      html: "<p>Please ship order 42.</p>",
      attachments: [
        { filename: "order.csv", content: "id,qty\n42,1\n", contentType: "text/csv" },
        // One byte over the listener's 10 MiB attachment cap: listed as dropped, not stored.
        { filename: "scan.bin", content: Buffer.alloc(10 * 1024 * 1024 + 1), contentType: "image/png" },
      ],
    });
    transport.close();
    const runId = await onlyRunOf(flowId);
    const item = await triggerItem(runId);
    expectDeclaredShape(schema, item);
    expect(item).toMatchObject({
      from: "ada@example.com",
      fromName: "Ada Lovelace",
      recipient: "orders+urgent@flows.test",
      tag: "urgent",
      attachments: [{ filename: "order.csv", contentType: "text/csv", size: 12 }],
      droppedAttachments: [
        {
          filename: "scan.bin",
          contentType: "image/png",
          size: 10 * 1024 * 1024 + 1,
          reason: "attachment_too_large",
        },
      ],
    });
  }, 60_000);

  it("cron: the real scheduler on its test clock, its fire admitted as the runtime admits it", async () => {
    const schema = declared("trigger.cron");
    const flowId = await triggerOnlyFlow("trigger.cron", { expression: "0 9 * * 1-5" }, false);
    const flow = await t.host.flows.get(flowId);
    const clock = createFakeClock("2025-01-03T12:00:00Z");
    const fired: unknown[] = [];
    const scheduler = createCronScheduler({
      clock,
      store: createMemoryStore(),
      log: pino({ level: "silent" }),
      isRunning: () => false,
      async fire(b, payload) {
        fired.push(payload);
        const { id } = await t.host.services.queue.enqueue({
          flowId: b.flowId,
          flowVersion: b.flowVersion,
          channel: "cron",
          payloadJson: JSON.stringify(payload),
        });
        t.host.services.worker.kick();
        return id;
      },
    });
    const config = registry.get("trigger.cron")!.config.parse({ expression: "0 9 * * 1-5" });
    await scheduler.bind({
      flowId,
      flowVersion: flow!.currentVersion,
      nodeId: "trigger",
      ...(config as { expression: string; overlap: "skip"; missed: "skip" }),
      timezone: "Europe/Berlin",
    });
    await clock.advanceTo("2025-01-06T12:00:00Z");
    scheduler.stop();
    expect(fired).toEqual([
      {
        scheduledAt: "2025-01-06T08:00:00.000Z",
        firedAt: "2025-01-06T08:00:00.000Z",
        expression: "0 9 * * 1-5",
        timezone: "Europe/Berlin",
        missed: false,
      },
    ]);
    const item = await triggerItem(await onlyRunOf(flowId));
    expectDeclaredShape(schema, item);
    expect(item).toEqual(fired[0]);
  });

  it("manual and API runs: the run-now function the editor, CLI and REST API call", async () => {
    const schema = declared("trigger.manual");
    const flowId = await triggerOnlyFlow("trigger.manual", {}, false);
    const example = exampleOf(schema);
    for (const channel of ["manual", "api"] as const) {
      const { runId } = await t.host.control.startRun(flowId, { payload: example, channel });
      const item = await triggerItem(runId);
      expectDeclaredShape(schema, item);
      expect(item).toEqual(example);
    }
    // Nothing given is {}; a JSON value that is not an object arrives as { value } (docs/flow-format.md).
    const none = await triggerItem((await t.host.control.startRun(flowId, { channel: "api" })).runId);
    expect(none).toEqual({});
    const list = await triggerItem(
      (await t.host.control.startRun(flowId, { payload: [1, 2], channel: "api" })).runId,
    );
    expectDeclaredShape(schema, list);
    expect(list).toEqual({ value: [1, 2] });
  });
});
