import nodemailer from "nodemailer";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost, waitForRun } from "./test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost({ SWITCHYARD_SMTP_DOMAIN: "flows.test" });
});
afterEach(async () => {
  await t.close();
});

describe("e-mail → flow", () => {
  it("starts a run with the parsed message once the flow is active, and refuses mail after deactivation", async () => {
    const flow = {
      nodes: [
        { id: "mail", type: "trigger.email", config: { localPart: "orders" } },
        {
          id: "pick",
          type: "data.set",
          config: { fields: [{ name: "subject", value: "=item.subject" }], keepOnlySet: true },
        },
      ],
      edges: [{ from: { node: "mail", port: "main" }, to: { node: "pick", port: "main" } }],
    };
    const { id } = await t.host.flows.create({ name: "Orders inbox", definition: flow });
    await t.host.control.setActive(id, true);
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: t.host.services.smtpPort(),
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      from: "ada@example.com",
      to: "orders+urgent@flows.test",
      subject: "Order #42",
      text: "Two boxes, please.",
    });

    const deadline = Date.now() + 10_000;
    let runs = await t.host.runs.list({ flowId: id });
    while (runs.runs.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      runs = await t.host.runs.list({ flowId: id });
    }
    const run = await waitForRun(t.host, runs.runs[0]!.id);
    expect(run.status).toBe("succeeded");
    expect(run.channel).toBe("email");
    expect(JSON.parse(run.triggerPayload)).toMatchObject({
      from: "ada@example.com",
      subject: "Order #42",
      tag: "urgent",
    });
    expect(JSON.parse(run.output!)).toEqual([{ json: { subject: "Order #42" } }]);

    await t.host.control.setActive(id, false);
    await expect(
      transport.sendMail({ from: "ada@example.com", to: "orders@flows.test", subject: "late", text: "x" }),
    ).rejects.toMatchObject({
      responseCode: 550,
    });
  });

  it("shows the e-mail trigger in error when the SMTP listener dies, and listening again once it recovers", async () => {
    const flow = {
      nodes: [{ id: "mail", type: "trigger.email", config: { localPart: "support" } }],
      edges: [],
    };
    const { id } = await t.host.flows.create({ name: "Support inbox", definition: flow });
    await t.host.control.setActive(id, true);
    expect(t.host.services.triggers.health(id)).toMatchObject({ type: "trigger.email", status: "listening" });
    const seen: string[] = [];
    let errorMessage: string | undefined;
    const deadline = Date.now() + 10_000;
    t.host.services.email.simulateFailure();
    while (Date.now() < deadline) {
      const h = t.host.services.triggers.health(id) as { status: string; lastError?: string };
      if (seen.at(-1) !== h.status) seen.push(h.status);
      if (h.status === "error") errorMessage = h.lastError;
      if (seen.includes("error") && h.status === "listening") break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toEqual(["error", "listening"]);
    expect(errorMessage).toEqual(expect.stringMatching(/./));
  });
});
