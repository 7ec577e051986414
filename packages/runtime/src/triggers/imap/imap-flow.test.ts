import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Dovecot, startDovecot } from "../../__tests__/dovecot";
import { startTestHost, waitForRun } from "../../__tests__/test-host";
import { mailbox, message } from "./imap-test-kit";

// The whole path on a real host: a vault credential, an activated flow with trigger.imap, a private
// Dovecot, runs on the e-mail channel, and the trigger's health as the flow list shows it.
vi.setConfig({ testTimeout: 30_000 });
let dovecot: Dovecot;
let t: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  dovecot = await startDovecot({ shop: "shop-pw", other: "other-pw" });
  t = await startTestHost();
  // The guard refuses loopback unless the operator allowed it, as for any outbound address.
  await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
  await t.host.services.reloadHttp();
});
afterAll(async () => {
  await t?.close();
  await dovecot?.stop();
});

const credential = (user: string, password: string, allowedHosts = "127.0.0.1") =>
  t.host.services.vault.create({
    name: `IMAP ${user}`,
    type: "imap",
    data: { host: "127.0.0.1", port: String(dovecot.port), secure: "false", user, password, allowedHosts },
  });

const mailFlow = (credentialId: string) => ({
  nodes: [
    { id: "mail", type: "trigger.imap", config: { credentialId, pollSeconds: 3600 } },
    {
      id: "pick",
      type: "data.set",
      config: { fields: [{ name: "subject", value: "=item.subject" }], keepOnlySet: true },
    },
  ],
  edges: [{ from: { node: "mail", port: "main" }, to: { node: "pick", port: "main" } }],
});

async function activate(name: string, credentialId: string) {
  const { id } = await t.host.flows.create({ name, definition: mailFlow(credentialId) });
  await t.host.control.setActive(id, true);
  return id;
}

describe("trigger.imap on a running host", () => {
  it("starts an e-mail run per unread message and marks the message read", async () => {
    const box = await mailbox(dovecot, "shop", "shop-pw");
    await box.deliver(message({ subject: "Order 1001" }));
    const cred = await credential("shop", "shop-pw");
    const flowId = await activate("Orders mailbox", cred.id);
    await t.host.services.imap.checked(flowId);
    const { runs } = await t.host.runs.list({ flowId });
    expect(runs).toHaveLength(1);
    const run = await waitForRun(t.host, runs[0]!.id);
    expect(run.status).toBe("succeeded");
    expect(run.channel).toBe("email");
    expect(JSON.parse(run.triggerPayload)).toMatchObject({
      subject: "Order 1001",
      from: "ada@example.com",
      recipient: "shop",
    });
    expect(await box.count()).toEqual({ all: 1, unread: 0 });
    expect(t.host.services.triggers.health(flowId)).toMatchObject({
      type: "trigger.imap",
      status: "listening",
      lastEventAt: expect.any(String),
    });
    await t.host.control.setActive(flowId, false);
    await box.close();
  });

  it("shows in the trigger's health why it cannot read the mailbox: an address the guard refuses, a wrong password", async () => {
    const box = await mailbox(dovecot, "other", "other-pw");
    await box.deliver(message({ subject: "Not for you" }));
    const wrong = await credential("other", "wrong-pw");
    const b = await activate("Wrong password", wrong.id);
    await t.host.services.imap.checked(b);
    expect(t.host.services.triggers.health(b)).toMatchObject({
      status: "error",
      lastError: "the IMAP server said: Authentication failed.",
    });
    await t.host.control.setActive(b, false);

    const right = await credential("other", "other-pw");
    await t.host.settings.set("http.allowHosts", []);
    await t.host.services.reloadHttp();
    try {
      const a = await activate("Loopback refused", right.id);
      await t.host.services.imap.checked(a);
      expect(t.host.services.triggers.health(a)).toMatchObject({
        status: "error",
        lastError: `request to imap://127.0.0.1:${dovecot.port} refused: 127.0.0.1 is a loopback address`,
      });
      expect((await t.host.runs.list({ flowId: a })).runs).toEqual([]);
      await t.host.control.setActive(a, false);
    } finally {
      await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
      await t.host.services.reloadHttp();
    }
    expect(await box.count()).toEqual({ all: 1, unread: 1 });
    await box.close();
  });
});
