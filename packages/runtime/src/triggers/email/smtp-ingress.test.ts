import { afterEach, describe, expect, it } from "vitest";
import { DOMAIN, binding, sendError, startIngress } from "./__tests__/harness";
import { rawSend, rawSession } from "./__tests__/raw-smtp";
import { HTML_TO_TEXT_MAX_CHARS } from "./parse-mail";

let h: Awaited<ReturnType<typeof startIngress>>;
afterEach(async () => h?.close());

describe("SMTP ingress: delivery", () => {
  it("admits a message with every payload field parsed, the +tag and a stored attachment reference", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders", { flowVersion: 3 }));
    const info = await h.send({
      envelope: { from: "ada@example.com", to: [`orders+urgent@${DOMAIN}`] },
      from: '"Ada Lovelace" <ada@example.com>',
      to: `Orders <orders+urgent@${DOMAIN}>`,
      cc: ["boss@example.com", "Audit <audit@example.org>"],
      subject: "Order ✓ 42",
      date: new Date("2024-05-06T07:08:09Z"),
      messageId: "<msg-1@example.com>",
      inReplyTo: "<msg-0@example.com>",
      headers: { "X-Order-Ref": "A-42" },
      text: "Please ship order 42.",
      html: "<p>Please ship <b>order 42</b>.</p>",
      attachments: [{ filename: "order.csv", content: "id,qty\n42,1\n", contentType: "text/csv" }],
    });
    expect(info.response).toMatch(/^250 .*queued as run-1/);
    expect(h.admitted).toHaveLength(1);
    const { binding: b, payload } = h.admitted[0]!;
    expect(b).toMatchObject({ flowId: "flow-orders", flowVersion: 3, nodeId: "trigger" });
    expect(payload).toMatchObject({
      from: "ada@example.com",
      fromName: "Ada Lovelace",
      to: [`orders+urgent@${DOMAIN}`],
      cc: ["boss@example.com", "audit@example.org"],
      subject: "Order ✓ 42",
      date: "2024-05-06T07:08:09.000Z",
      messageId: "<msg-1@example.com>",
      inReplyTo: "<msg-0@example.com>",
      text: "Please ship order 42.",
      html: "<p>Please ship <b>order 42</b>.</p>",
      recipient: `orders+urgent@${DOMAIN}`,
      tag: "urgent",
      attachments: [{ id: "att-1", filename: "order.csv", contentType: "text/csv", size: 12 }],
      droppedAttachments: [],
    });
    expect(payload.headers["x-order-ref"]).toBe("A-42");
    expect(payload.headers["message-id"]).toBe("<msg-1@example.com>");
    expect(Object.keys(payload.headers).every((k) => k === k.toLowerCase())).toBe(true);
    expect(h.stored.get("att-1")?.content.toString()).toBe("id,qty\n42,1\n");
  });

  it("starts one run per bound flow when a message is addressed to two flows, and one for two addresses of a flow", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders"));
    h.ingress.bind(binding("support"));
    await h.send({
      from: "ada@example.com",
      to: [`orders@${DOMAIN}`, `orders+x@${DOMAIN}`, `Support@${DOMAIN.toUpperCase()}`],
      subject: "both",
      text: "hi",
    });
    expect(h.admitted.map((a) => [a.binding.flowId, a.payload.recipient, a.payload.tag])).toEqual([
      ["flow-orders", `orders@${DOMAIN}`, undefined],
      // nodemailer lower-cases domains; the raw relay test below covers an upper-case domain
      ["flow-support", `Support@${DOMAIN}`, undefined],
    ]);
  });

  it("drops attachments over the per-attachment and total caps and lists them in the payload", async () => {
    h = await startIngress({ maxAttachmentBytes: 1000, maxTotalAttachmentBytes: 1500 });
    h.ingress.bind(binding("orders"));
    await h.send({
      from: "ada@example.com",
      to: `orders@${DOMAIN}`,
      subject: "files",
      text: "see attached",
      attachments: [
        { filename: "big.bin", content: Buffer.alloc(1001, 1) },
        { filename: "a.bin", content: Buffer.alloc(900, 2) },
        { filename: "b.bin", content: Buffer.alloc(700, 3) },
        { filename: "c.bin", content: Buffer.alloc(600, 4) },
      ],
    });
    const p = h.admitted[0]!.payload;
    expect(p.attachments.map((a) => [a.filename, a.size])).toEqual([
      ["a.bin", 900],
      ["c.bin", 600],
    ]);
    expect(p.droppedAttachments).toEqual([
      {
        filename: "big.bin",
        contentType: "application/octet-stream",
        size: 1001,
        reason: "attachment_too_large",
      },
      { filename: "b.bin", contentType: "application/octet-stream", size: 700, reason: "total_too_large" },
    ]);
    expect([...h.stored.values()].map((s) => s.content.length)).toEqual([900, 600]);
  });

  it("turns a small HTML-only message into text and leaves the text of a large one empty, keeping its HTML", async () => {
    h = await startIngress({ maxMessageBytes: 2 * 1024 * 1024 });
    h.ingress.bind(binding("orders"));
    const send = (html: string) =>
      h.send({ from: "ada@example.com", to: `orders@${DOMAIN}`, subject: "html", html });
    await send("<p>Please ship <b>order 42</b>.</p>");
    // Past HTML_TO_TEXT_MAX_CHARS nothing is converted: a long table used to hold the event loop for seconds.
    const table = `<table>${"<tr><td>a</td><td>b</td></tr>".repeat(HTML_TO_TEXT_MAX_CHARS / 26 + 1)}</table>`;
    await send(table);
    expect(h.admitted.map((a) => a.payload.text)).toEqual(["Please ship order 42.", undefined]);
    expect("text" in h.admitted[1]!.payload).toBe(false);
    expect(h.admitted[1]!.payload.html?.trim()).toBe(table);
  });

  it("keeps a text part as the text and does not convert HTML parts beside it", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders"));
    await h.send({
      from: "ada@example.com",
      to: `orders@${DOMAIN}`,
      text: "the text part",
      attachments: [
        { content: "<p>an html part</p>", contentType: "text/html", contentDisposition: "inline" },
      ],
    });
    expect(h.admitted[0]!.payload.text).toBe("the text part\n");
  });
});

describe("SMTP ingress: refusals", () => {
  it("refuses an unknown recipient with 550 at RCPT and admits nothing", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders"));
    const err = await sendError(h.send({ from: "ada@example.com", to: `nobody@${DOMAIN}`, text: "x" }));
    expect(err.responseCode).toBe(550);
    expect(err.response).toMatch(/5\.1\.1 <nobody@mail\.test>: no such mailbox/);
    expect(h.admitted).toEqual([]);
  });

  it("refuses another domain with 550 so it is never an open relay", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders"));
    const err = await sendError(
      h.send({ from: "ada@example.com", to: "orders@elsewhere.example", text: "x" }),
    );
    expect(err.responseCode).toBe(550);
    expect(err.response).toMatch(/Relaying denied/);
    const s = await rawSession(h.port);
    await s.command("EHLO client.test");
    await s.command("MAIL FROM:<ada@example.com>");
    expect((await s.command(`RCPT TO:<orders@${DOMAIN}.evil.example>`)).code).toBe(550);
    expect((await s.command(`RCPT TO:<orders%elsewhere.example@${DOMAIN}>`)).code).toBe(550);
    expect((await s.command("RCPT TO:<orders>")).code).toBe(501);
    expect((await s.command(`RCPT TO:<ORDERS@${DOMAIN.toUpperCase()}>`)).code).toBe(250);
    s.destroy();
    expect(h.admitted).toEqual([]);
  });

  it("refuses a message over the size limit with 552, announced or not", async () => {
    h = await startIngress({ maxMessageBytes: 20_000 });
    h.ingress.bind(binding("orders"));
    const err = await sendError(
      h.send({ from: "ada@example.com", to: `orders@${DOMAIN}`, text: "x".repeat(30_000) }),
    );
    expect(err.responseCode).toBe(552);
    // without a SIZE parameter the limit is found while reading DATA
    const raw = await rawSend(
      h.port,
      "ada@example.com",
      [`orders@${DOMAIN}`],
      Buffer.from(`Subject: big\n\n${"y".repeat(30_000)}`),
    );
    expect(raw.end?.code).toBe(552);
    const s = await rawSession(h.port);
    await s.command("EHLO client.test");
    expect((await s.command("MAIL FROM:<ada@example.com> SIZE=30000")).code).toBe(552);
    s.destroy();
    expect(h.admitted).toEqual([]);
  });

  it("applies a binding's smaller size limit at RCPT (declared SIZE) and at DATA", async () => {
    h = await startIngress();
    h.ingress.bind(binding("small", { maxMessageBytes: 2048 }));
    const s = await rawSession(h.port);
    await s.command("EHLO client.test");
    await s.command("MAIL FROM:<ada@example.com> SIZE=5000");
    const rcpt = await s.command(`RCPT TO:<small@${DOMAIN}>`);
    expect(rcpt).toEqual({ code: 552, text: expect.stringMatching(/limit is 2048 bytes/) });
    s.destroy();
    const raw = await rawSend(
      h.port,
      "ada@example.com",
      [`small@${DOMAIN}`],
      Buffer.from(`Subject: big\n\n${"z".repeat(5000)}`),
    );
    expect(raw.end?.code).toBe(552);
    expect(h.admitted).toEqual([]);
  });

  it("answers 452 past the recipient limit and delivers to the recipients accepted so far", async () => {
    h = await startIngress({ maxRecipients: 2 });
    for (const l of ["a", "b", "c"]) h.ingress.bind(binding(l));
    const info = await h.send({
      from: "ada@example.com",
      to: ["a", "b", "c"].map((l) => `${l}@${DOMAIN}`),
      text: "x",
    });
    const rejected = (info as unknown as { rejectedErrors: { responseCode: number }[] }).rejectedErrors;
    expect(info.rejected).toEqual([`c@${DOMAIN}`]);
    expect(rejected.map((e) => e.responseCode)).toEqual([452]);
    expect(h.admitted.map((a) => a.binding.flowId)).toEqual(["flow-a", "flow-b"]);
  });

  it("refuses senders outside a binding's allow-list with 550 and a clear text, and admits the listed ones", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders", { allowFrom: ["@example.com", "boss@partner.example"] }));
    const err = await sendError(h.send({ from: "eve@evil.example", to: `orders@${DOMAIN}`, text: "x" }));
    expect(err.responseCode).toBe(550);
    expect(err.response).toMatch(/Sender <eve@evil\.example> is not allowed to send to <orders@mail\.test>/);
    const nullSender = await rawSend(h.port, "", [`orders@${DOMAIN}`], Buffer.from("x"));
    expect(nullSender.rcpt?.code).toBe(550);
    await h.send({ from: "Ada@Example.com", to: `orders@${DOMAIN}`, text: "x" });
    await h.send({ from: "boss@partner.example", to: `orders@${DOMAIN}`, text: "x" });
    expect(h.admitted.map((a) => a.payload.from)).toEqual(["Ada@example.com", "boss@partner.example"]);
  });

  it("refuses a message whose From header is outside the allow-list even when the envelope sender is listed", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders", { allowFrom: ["@example.com"] }));
    h.ingress.bind(binding("open"));
    const forged = {
      envelope: { from: "ada@example.com", to: [`orders@${DOMAIN}`] },
      from: "CEO <ceo@evil.example>",
      to: `orders@${DOMAIN}`,
      text: "wire the money",
    };
    const err = await sendError(h.send(forged));
    expect(err.responseCode).toBe(550);
    expect(err.response).toBe(
      `550 5.7.1 Sender <ceo@evil.example> (From header) is not allowed to send to <orders@${DOMAIN}>`,
    );
    // Sent to a flow that allows anyone as well, it reaches only that one.
    await h.send({
      ...forged,
      envelope: { from: "ada@example.com", to: [`orders@${DOMAIN}`, `open@${DOMAIN}`] },
    });
    expect(h.admitted.map((a) => a.binding.flowId)).toEqual(["flow-open"]);
    // Both listed: admitted.
    await h.send({ ...forged, from: "Ada <ada@example.com>" });
    expect(h.admitted.map((a) => a.binding.flowId)).toEqual(["flow-open", "flow-orders"]);
  });

  it("refuses a message with two From fields for a flow with an allow-list, whichever comes first", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders", { allowFrom: ["@example.com"] }));
    h.ingress.bind(binding("open"));
    // mailparser reads the first From field only; the second still reaches the flow in `headers.from`.
    for (const froms of [
      ["a@example.com", "evil@evil.example"],
      ["b@example.com", "c@example.com"],
    ]) {
      const message = Buffer.from(
        `${froms.map((f) => `From: ${f}`).join("\r\n")}\r\nSubject: two\r\n\r\nwire the money\r\n`,
      );
      const refused = await rawSend(h.port, "a@example.com", [`orders@${DOMAIN}`], message);
      expect(refused.end).toEqual({
        code: 550,
        text: `5.7.1 The message has 2 From header fields; <orders@${DOMAIN}> only takes mail with one, from an allowed sender`,
      });
      // A flow without an allow-list takes it as it is.
      expect((await rawSend(h.port, "a@example.com", [`open@${DOMAIN}`], message)).end?.code).toBe(250);
    }
    expect(h.admitted.map((a) => [a.binding.flowId, a.payload.headers.from])).toEqual([
      ["flow-open", "a@example.com\nevil@evil.example"],
      ["flow-open", "b@example.com\nc@example.com"],
    ]);
  });

  it("answers 421 to connections past the limit", async () => {
    h = await startIngress({ maxConnections: 2 });
    const a = await rawSession(h.port);
    const b = await rawSession(h.port);
    const c = await rawSession(h.port);
    expect([a.greeting.code, b.greeting.code, c.greeting.code]).toEqual([220, 220, 421]);
    expect(a.greeting.text).toMatch(/Switchyard inbound mail/);
    for (const s of [a, b, c]) s.destroy();
  });
});

describe("SMTP ingress: address map", () => {
  it("refuses to bind a local part another flow owns, and stops accepting a flow once unbound", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders"));
    expect(() => h.ingress.bind({ ...binding("Orders"), flowId: "flow-other" })).toThrow(
      "e-mail address orders@mail.test is already used by flow flow-orders",
    );
    h.ingress.bind({ ...binding("sales"), flowId: "flow-orders" }); // a flow re-binds to a new address
    expect(
      (await sendError(h.send({ from: "a@example.com", to: `orders@${DOMAIN}`, text: "x" }))).responseCode,
    ).toBe(550);
    h.ingress.unbind("flow-orders");
    expect(
      (await sendError(h.send({ from: "a@example.com", to: `sales@${DOMAIN}`, text: "x" }))).responseCode,
    ).toBe(550);
    expect(h.admitted).toEqual([]);
  });

  it("survives a client that vanishes in the middle of DATA", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders"));
    const s = await rawSession(h.port);
    await s.command("EHLO client.test");
    await s.command("MAIL FROM:<a@example.com>");
    await s.command(`RCPT TO:<orders@${DOMAIN}>`);
    await s.command("DATA");
    s.write("Subject: half\r\n\r\nhalf a mess");
    s.destroy();
    await h.send({ from: "a@example.com", to: `orders@${DOMAIN}`, subject: "whole", text: "x" });
    expect(h.admitted.map((a) => a.payload.subject)).toEqual(["whole"]);
  });
});
