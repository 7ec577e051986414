import type { ImapConfig } from "@switchyard/contracts/triggers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Dovecot, startDovecot } from "../../__tests__/dovecot";
import { createLogger } from "../../logger";
import type { TriggerBinding, TriggerHealthUpdate } from "../listener";
import { imapConfig, mailbox, message } from "./imap-test-kit";
import { createMailboxWatcher, type ImapAccount } from "./watcher";

// A private Dovecot per file (its own port, config and Maildir in a temp dir), one mail user per test.
let dovecot: Dovecot;
vi.setConfig({ testTimeout: 30_000 });
const users = { a1: "pw1", a2: "pw2", a3: "pw3", a4: "pw4", a5: "pw5", a6: "pw6" };
beforeAll(async () => {
  dovecot = await startDovecot(users);
});
afterAll(() => dovecot?.stop());

const account =
  (user: keyof typeof users, password = users[user]) =>
  async (): Promise<ImapAccount> => ({
    host: "127.0.0.1",
    address: "127.0.0.1",
    port: dovecot.port,
    secure: false,
    user,
    password,
  });

/** A binding whose admission the test controls; it records health and every admitted payload. */
function fakeBinding(
  config: ImapConfig,
  admit: (payloadJson: string) => Promise<string>,
  onAdmitted: () => void = () => undefined,
) {
  const health: TriggerHealthUpdate = {};
  const admitted: Record<string, unknown>[] = [];
  const binding: TriggerBinding<ImapConfig> = {
    flowId: "f1",
    flowVersion: 1,
    nodeId: "mail",
    config,
    settings: {} as TriggerBinding["settings"],
    fire: (p) => binding.fireJson(JSON.stringify(p)),
    async fireJson(json) {
      const id = await admit(json);
      admitted.push(JSON.parse(json));
      onAdmitted();
      return id;
    },
    report: (u) => Object.assign(health, u),
  };
  return { binding, health, admitted };
}

const deps = {
  storeAttachment: async () => "att-1",
  limits: { maxAttachmentBytes: 1e6, maxTotalAttachmentBytes: 2e6 },
};
const log = createLogger("silent");

describe("IMAP mailbox watcher", () => {
  it("admits each unread message with the e-mail payload, and marks it read only after its run is admitted", async () => {
    const box = await mailbox(dovecot, "a1", users.a1);
    await box.deliver(message({ subject: "First", text: "one" }));
    await box.deliver(message({ subject: "Second", attachment: "attached text" }));
    const unreadAtAdmission: number[] = [];
    const { binding, health, admitted } = fakeBinding(imapConfig({ credentialId: "c" }), async () => {
      // The moment the run is admitted, the message must still be unread on the server.
      unreadAtAdmission.push((await box.count()).unread);
      return `run-${unreadAtAdmission.length}`;
    });
    const w = createMailboxWatcher({ binding, account: account("a1"), log, ...deps });
    await w.checked();
    expect(unreadAtAdmission).toEqual([2, 1]);
    expect(await box.count()).toEqual({ all: 2, unread: 0 });
    expect(health).toEqual({ status: "listening", lastError: undefined });
    expect(admitted[0]).toEqual({
      from: "ada@example.com",
      fromName: "Ada",
      to: ["inbox@example.com"],
      cc: [],
      subject: "First",
      date: "2026-12-01T10:00:00.000Z",
      messageId: "<First@example.com>",
      text: "one\n",
      headers: expect.objectContaining({ subject: "First", "message-id": "<First@example.com>" }),
      attachments: [],
      droppedAttachments: [],
      recipient: "a1",
    });
    expect(admitted[1]).toMatchObject({
      subject: "Second",
      attachments: [{ id: "att-1", filename: "note.txt", contentType: "text/plain", size: 13 }],
    });
    await w.stop();
    await box.close();
  });

  it("leaves a message unread when its run cannot be admitted, reports why, and admits it on the next try", async () => {
    const box = await mailbox(dovecot, "a2", users.a2);
    await box.deliver(message({ subject: "Retry me" }));
    let refuse = true;
    const { binding, health, admitted } = fakeBinding(imapConfig({ credentialId: "c" }), async () => {
      if (refuse) throw new Error("the run queue is unavailable");
      return "run-1";
    });
    const w = createMailboxWatcher({ binding, account: account("a2"), log, firstBackoffMs: 20, ...deps });
    await w.checked();
    expect(health).toMatchObject({
      status: "error",
      lastError: "no run admitted for message 1, left unread: the run queue is unavailable",
    });
    expect(await box.count()).toEqual({ all: 1, unread: 1 });
    refuse = false;
    await w.checked();
    expect(admitted.map((p) => p.subject)).toEqual(["Retry me"]);
    expect(await box.count()).toEqual({ all: 1, unread: 0 });
    expect(health).toMatchObject({ status: "listening", lastError: undefined });
    await w.stop();
    await box.close();
  });

  it("moves handled mail to another folder when asked to", async () => {
    const box = await mailbox(dovecot, "a3", users.a3);
    await box.create("Handled");
    await box.deliver(message({ subject: "Move me" }));
    const { binding, admitted } = fakeBinding(
      imapConfig({ credentialId: "c", after: "move", moveTo: "Handled" }),
      async () => "run-1",
    );
    const w = createMailboxWatcher({ binding, account: account("a3"), log, ...deps });
    await w.checked();
    expect(admitted.map((p) => p.subject)).toEqual(["Move me"]);
    expect(await box.count("INBOX")).toEqual({ all: 0, unread: 0 });
    expect(await box.count("Handled")).toEqual({ all: 1, unread: 1 });
    await w.stop();
    await box.close();
  });

  it("wakes on new mail through IDLE, without waiting for the poll interval", async () => {
    const box = await mailbox(dovecot, "a4", users.a4);
    let admittedOne!: () => void;
    const arrived = new Promise<void>((r) => (admittedOne = r));
    const { binding, admitted } = fakeBinding(
      imapConfig({ credentialId: "c", pollSeconds: 3600 }),
      async () => "run-1",
      () => admittedOne(),
    );
    const w = createMailboxWatcher({ binding, account: account("a4"), log, ...deps });
    await w.checked();
    expect(admitted).toEqual([]);
    await box.deliver(message({ subject: "Pushed" }));
    // The poll interval is an hour: only the server's EXISTS (IDLE) can bring this message in.
    await arrived;
    expect(admitted.map((p) => p.subject)).toEqual(["Pushed"]);
    await w.stop();
    await box.close();
  });

  it("reports a wrong password and a server that went away, and reconnects with backoff when it is back", async () => {
    const bad = fakeBinding(imapConfig({ credentialId: "c" }), async () => "run");
    const wrong = createMailboxWatcher({
      binding: bad.binding,
      account: account("a5", "nope"),
      log,
      ...deps,
    });
    await wrong.checked();
    expect(bad.health).toEqual({
      status: "error",
      lastError: "the IMAP server said: Authentication failed.",
    });
    await wrong.stop();

    const box = await mailbox(dovecot, "a5", users.a5);
    const { binding, health, admitted } = fakeBinding(imapConfig({ credentialId: "c" }), async () => "run-1");
    const w = createMailboxWatcher({
      binding,
      account: account("a5"),
      log,
      firstBackoffMs: 20,
      maxBackoffMs: 200,
      ...deps,
    });
    await w.checked();
    expect(health.status).toBe("listening");
    await box.close().catch(() => undefined);
    await dovecot.pause();
    // Until the watcher notices the server is gone; then health says why.
    while (health.status !== "error") await w.checked();
    expect(health.lastError).toMatch(
      /^(the server closed the connection|Connection not available|connect ECONNREFUSED 127\.0\.0\.1:\d+)$/,
    );
    await dovecot.resume();
    const again = await mailbox(dovecot, "a5", users.a5);
    await again.deliver(message({ subject: "After the outage" }));
    // Each check wakes a reconnect attempt; the first one after the restart connects and admits the mail.
    while (admitted.length === 0) await w.checked();
    expect(admitted.map((p) => p.subject)).toEqual(["After the outage"]);
    expect(health).toEqual({ status: "listening", lastError: undefined });
    await w.stop();
    await again.close();
  });

  it("skips a message it cannot turn into a payload, leaving it unread and naming it, and goes on with the rest", async () => {
    const box = await mailbox(dovecot, "a6", users.a6);
    await box.deliver(message({ subject: "With file", attachment: "x" }));
    await box.deliver(message({ subject: "Plain" }));
    const { binding, health, admitted } = fakeBinding(imapConfig({ credentialId: "c" }), async () => "run-1");
    const w = createMailboxWatcher({
      binding,
      account: account("a6"),
      log,
      limits: deps.limits,
      storeAttachment: async () => {
        throw new Error("the attachment store is full");
      },
    });
    await w.checked();
    expect(admitted.map((p) => p.subject)).toEqual(["Plain"]);
    expect(health).toEqual({
      status: "listening",
      lastError: "message 1 could not be read and stays unread: the attachment store is full",
    });
    expect(await box.count()).toEqual({ all: 2, unread: 1 });
    await w.stop();
    await box.close();
  });
});

describe("IMAP mailbox watcher over TLS", () => {
  it("verifies the server's certificate: a self-signed one is refused, and health says so", async () => {
    const tls = await startDovecot({ t1: "pw" }, { tls: true });
    try {
      const { binding, health, admitted } = fakeBinding(imapConfig({ credentialId: "c" }), async () => "run");
      const w = createMailboxWatcher({
        binding,
        account: async () => ({
          host: "imap.test",
          address: "127.0.0.1",
          port: tls.tlsPort,
          secure: true,
          user: "t1",
          password: "pw",
        }),
        log,
        ...deps,
      });
      await w.checked();
      expect(health).toEqual({ status: "error", lastError: "self-signed certificate" });
      expect(admitted).toEqual([]);
      await w.stop();
    } finally {
      await tls.stop();
    }
  });
});
