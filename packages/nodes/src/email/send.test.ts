import type { AddressInfo } from "node:net";
import type { SecretsReader } from "@switchyard/engine";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { createHttpClient, type GuardedHttpClient } from "../http/client";
import { sendEmailNode } from "./send";
import { executeNode } from "../__tests__/execute-node";

let server: SMTPServer;
let port = 0;
const received: { mail: ParsedMail; envelopeTo: string[]; user?: string }[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: true,
    onAuth(auth, _session, cb) {
      if (auth.username === "mailer" && auth.password === "s3cret") cb(null, { user: auth.username });
      else cb(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, cb) {
      if (address.address.endsWith("@blocked.test")) {
        const err = new Error("mailbox unavailable") as Error & { responseCode: number };
        err.responseCode = 550;
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      simpleParser(stream).then((mail) => {
        received.push({
          mail,
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string,
        });
        cb();
      }, cb);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const secrets = (data: Record<string, string>): SecretsReader => ({
  get: async () => ({ type: "smtp", data }),
});
const smtp = () => ({
  host: "127.0.0.1",
  port: String(port),
  secure: "false",
  user: "mailer",
  pass: "s3cret",
  from: "Flows <flows@switchyard.test>",
  allowedHosts: "127.0.0.1, mail.invalid",
});

// The host's outbound guard, letting loopback through for the test server; `mail.invalid` resolves
// only through this fake, so a delivery to it proves the node connected to the vetted address.
const lookups: string[] = [];
const guard = createHttpClient({
  allowHosts: ["127.0.0.1", "mail.invalid"],
  lookup: async (host) => {
    lookups.push(host);
    return [{ address: "127.0.0.1", family: 4 }];
  },
});

const send = (
  config: Record<string, unknown>,
  json: Record<string, unknown> = {},
  data: Record<string, string> = smtp(),
  http: GuardedHttpClient | null = guard,
) =>
  executeNode(sendEmailNode, {
    config: { credentialId: "smtp", ...config } as never,
    input: items(json),
    ctx: fakeCtx({ secrets: secrets(data), ...(http ? { http } : {}) }),
  });

describe("email.send", () => {
  it("delivers a message with recipients, subject, bodies and an attachment", async () => {
    received.length = 0;
    const files = [
      {
        filename: "hello.txt",
        content: Buffer.from("hello file").toString("base64"),
        contentType: "text/plain",
      },
    ];
    const out = await send(
      {
        to: ["ada@example.test", "bob@example.test"],
        cc: "cy@example.test",
        bcc: "hidden@example.test",
        subject: "Your order",
        text: "Thanks!",
        html: "<p>Thanks!</p>",
        attachmentsField: "files",
      },
      { files },
    );
    expect(out).toMatchObject({
      items: [
        {
          json: {
            accepted: ["ada@example.test", "bob@example.test", "cy@example.test", "hidden@example.test"],
            rejected: [],
          },
        },
      ],
    });
    expect(received).toHaveLength(1);
    const { mail, envelopeTo, user } = received[0]!;
    expect(user).toBe("mailer");
    expect(mail.from?.text).toBe('"Flows" <flows@switchyard.test>');
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((v) => v.address) : []).toEqual([
      "ada@example.test",
      "bob@example.test",
    ]);
    expect(mail.cc && !Array.isArray(mail.cc) ? mail.cc.text : "").toBe("cy@example.test");
    expect(mail.bcc).toBeUndefined();
    expect(envelopeTo).toContain("hidden@example.test");
    expect(mail.subject).toBe("Your order");
    expect(mail.text?.trim()).toBe("Thanks!");
    expect(mail.html).toBe("<p>Thanks!</p>");
    expect(mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
      ["hello.txt", "text/plain", "hello file"],
    ]);
  });

  it("refuses an SMTP host the outbound address guard forbids, before connecting", async () => {
    received.length = 0;
    const err = await send(
      { to: "ada@example.test", subject: "Hi", text: "x" },
      {},
      smtp(),
      createHttpClient(),
    ).catch((e) => e);
    expect(err).toMatchObject({
      code: "policy_denied",
      nodeId: "n1",
      message: `request to smtp://127.0.0.1:${port} refused: 127.0.0.1 is a loopback address`,
    });
    expect(received).toHaveLength(0);
  });

  it("connects to the address the guard vetted, resolving the SMTP host name only once", async () => {
    received.length = 0;
    lookups.length = 0;
    await send({ to: "ada@example.test", subject: "Hi", text: "x" }, {}, { ...smtp(), host: "mail.invalid" });
    expect(received).toHaveLength(1);
    expect(lookups).toEqual(["mail.invalid"]);
  });

  it("presents the SMTP host name, not the vetted address, as the TLS server name", async () => {
    const names: string[] = [];
    const tlsServer = new SMTPServer({
      secure: true,
      // No certificate on purpose: the handshake stops after the client said which name it wants.
      SNICallback: (name, cb) => {
        names.push(name);
        cb(new Error("no certificate in this test"), undefined as never);
      },
    });
    tlsServer.on("error", () => {}); // the refused handshake is expected here
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
    try {
      const tlsPort = (tlsServer.server.address() as AddressInfo).port;
      const err = await send(
        { to: "ada@example.test", subject: "Hi", text: "x", timeoutMs: 2000 },
        {},
        { ...smtp(), host: "mail.invalid", port: String(tlsPort), secure: "true" },
      ).catch((e) => e);
      expect(err.code).toBe("http_failed");
      expect(names).toEqual(["mail.invalid"]);
    } finally {
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });

  it("refuses to send the SMTP credential to a host outside its allowed hosts", async () => {
    received.length = 0;
    const err = await send(
      { to: "ada@example.test", subject: "Hi", text: "x" },
      {},
      { ...smtp(), allowedHosts: "smtp.example.com" },
    ).catch((e) => e);
    expect(err).toMatchObject({
      code: "policy_denied",
      message: 'credential "smtp" may not be sent to 127.0.0.1: its allowed hosts are smtp.example.com',
    });
    expect(received).toHaveLength(0);
  });

  it("refuses to connect when the host gives it no outbound address guard", async () => {
    const err = await send({ to: "ada@example.test", subject: "Hi", text: "x" }, {}, smtp(), null).catch(
      (e) => e,
    );
    expect(err).toMatchObject({
      code: "not_configured",
      message: "the outbound address guard is not available to this node",
    });
  });

  it("uses the config's from over the credential's", async () => {
    received.length = 0;
    await send({ to: "ada@example.test", from: "other@switchyard.test", subject: "Hi", text: "x" });
    expect(received[0]?.mail.from?.text).toBe("other@switchyard.test");
  });

  it("fails non-retryably when the server refuses the recipient", async () => {
    const err = await send({ to: "x@blocked.test", subject: "Hi", text: "x" }).catch((e) => e);
    expect(err.code).toBe("http_failed");
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(
      /^SMTP send failed: Can't send mail - all recipients were rejected: 550 mailbox unavailable/,
    );
  });

  it("fails when the credential's password is wrong", async () => {
    const err = await send(
      { to: "ada@example.test", subject: "Hi", text: "x" },
      {},
      { ...smtp(), pass: "nope" },
    ).catch((e) => e);
    expect(err.code).toBe("http_failed");
    expect(err.message).toMatch(/^SMTP send failed: Invalid login/);
  });

  it("names the missing credential fields", async () => {
    const err = await send({ to: "ada@example.test", subject: "Hi", text: "x" }, {}, {
      port: "25",
    } as never).catch((e) => e);
    expect(err).toMatchObject({
      code: "config_invalid",
      message:
        'credential "smtp".host: Invalid input: expected string, received undefined; credential "smtp".from: Invalid input: expected string, received undefined',
    });
  });

  it("refuses attachments that are not {filename, content}", async () => {
    const err = await send(
      { to: "ada@example.test", subject: "Hi", text: "x", attachmentsField: "files" },
      { files: [{ name: "a" }] },
    ).catch((e) => e);
    expect(err).toMatchObject({
      code: "input_invalid",
      message:
        "item.files[0].filename: Invalid input: expected string, received undefined; item.files[0].content: Invalid input: expected string, received undefined",
    });
  });

  it("needs a body and a recipient with an @", async () => {
    const err = await send({ to: "nobody", subject: "Hi" }).catch((e) => e);
    expect(err).toMatchObject({
      code: "config_invalid",
      message: 'node "n1" field "to": every address needs an @; field "text": give a text or an html body',
    });
  });
});
