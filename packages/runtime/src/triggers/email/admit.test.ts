import nodemailer from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { DOMAIN, binding, sendError, startIngress, waitFor } from "./__tests__/harness";
import { rawSession } from "./__tests__/raw-smtp";
import type { EmailBinding } from "./payload-schema";

let h: Awaited<ReturnType<typeof startIngress>>;
afterEach(async () => h?.close());

const message = {
  from: "ada@example.com",
  to: `orders@${DOMAIN}`,
  messageId: "<retry-1@example.com>",
  date: new Date("2024-01-01T00:00:00Z"),
  subject: "retry me",
  text: "x",
};

describe("SMTP ingress: durable admission", () => {
  it("answers 451 when admit throws, admits nothing, and accepts the re-sent message", async () => {
    const runs: string[] = [];
    let down = true;
    h = await startIngress({
      admit: async (_b, json) => {
        if (down) throw new Error("database is locked");
        runs.push(JSON.parse(json).subject);
        return `run-${runs.length}`;
      },
    });
    h.ingress.bind(binding("orders"));
    const err = await sendError(h.send(message));
    expect(err.responseCode).toBe(451);
    expect(err.response).toMatch(/4\.3\.0 Could not queue the message, please try again later/);
    expect(runs).toEqual([]);
    expect(
      h.logs.some((l) => l.msg === "could not admit e-mail run" && l.err?.message === "database is locked"),
    ).toBe(true);
    down = false;
    const info = await h.send(message);
    expect(info.response).toMatch(/^250 .*queued as run-1/);
    expect(runs).toEqual(["retry me"]);
  });

  it("on a retry after a partial failure admits only the flow still missing", async () => {
    const runs: string[] = [];
    let failSupportOnce = true;
    h = await startIngress({
      admit: async (b: EmailBinding) => {
        if (b.flowId === "flow-support" && failSupportOnce) {
          failSupportOnce = false;
          throw new Error("disk full");
        }
        runs.push(b.flowId);
        return `run-${runs.length}`;
      },
    });
    h.ingress.bind(binding("orders"));
    h.ingress.bind(binding("support"));
    const both = { ...message, to: [`orders@${DOMAIN}`, `support@${DOMAIN}`] };
    // nodemailer rebuilds the message per send; the raw bytes must repeat, as an MTA retry does
    const raw = (await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(both))
      .message as Buffer;
    expect((await sendError(h.send({ envelope: { from: both.from, to: both.to }, raw }))).responseCode).toBe(
      451,
    );
    expect(runs).toEqual(["flow-orders"]);
    const info = await h.send({ envelope: { from: both.from, to: both.to }, raw });
    expect(info.response).toMatch(/queued as run-1,run-2/);
    expect(runs).toEqual(["flow-orders", "flow-support"]);
    // a sender that retries once more (its 250 got lost) gets the same runs, not new ones
    expect((await h.send({ envelope: { from: both.from, to: both.to }, raw })).response).toMatch(
      /queued as run-1,run-2/,
    );
    expect(runs).toEqual(["flow-orders", "flow-support"]);
  });

  it("answers 451 when an attachment cannot be stored", async () => {
    h = await startIngress({
      storeAttachment: async () => {
        throw new Error("blob store offline");
      },
    });
    h.ingress.bind(binding("orders"));
    const err = await sendError(h.send({ ...message, attachments: [{ filename: "a.txt", content: "a" }] }));
    expect(err.responseCode).toBe(451);
    expect(h.admitted).toEqual([]);
  });

  it("answers DATA only after admit has resolved", async () => {
    let release: (runId: string) => void = () => {};
    let admitCalled = false;
    h = await startIngress({
      admit: () => {
        admitCalled = true;
        return new Promise<string>((resolve) => {
          release = resolve;
        });
      },
    });
    h.ingress.bind(binding("orders"));
    const s = await rawSession(h.port);
    await s.command("EHLO client.test");
    await s.command("MAIL FROM:<ada@example.com>");
    await s.command(`RCPT TO:<orders@${DOMAIN}>`);
    await s.command("DATA");
    let answered = false;
    const reply = s.data(Buffer.from("Subject: wait\n\nbody\n")).then((r) => {
      answered = true;
      return r;
    });
    await waitFor(() => admitCalled);
    // a reply sent before admit settled would have arrived within this window
    await new Promise((r) => setTimeout(r, 100));
    expect(answered).toBe(false);
    release("run-slow");
    expect(await reply).toEqual({ code: 250, text: "OK: queued as run-slow" });
    s.destroy();
  });
});
