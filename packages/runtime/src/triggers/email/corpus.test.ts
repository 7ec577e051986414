import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN, binding, startIngress } from "./__tests__/harness";
import { type Reply, rawSend } from "./__tests__/raw-smtp";
import type { EmailPayload as EmailRunPayload } from "@switchyard/contracts/triggers";

const dir = join(import.meta.dirname, "../../../test/email-corpus");
const SENDER = "sender@example.com";

type Expectation = { refused: { code: number; text: RegExp } } | { accepted: (p: EmailRunPayload) => void };

/** What each corpus message must come to: accepted with these payload facts, or refused with this reply. */
const expected: Record<string, Expectation> = {
  "01-no-headers.eml": {
    accepted: (p) => expect(p).toMatchObject({ from: SENDER, subject: "", to: [], cc: [] }),
  },
  "02-headers-no-body.eml": {
    accepted: (p) => expect([p.subject, p.text]).toEqual(["headers only", undefined]),
  },
  "03-empty-body.eml": { accepted: (p) => expect(p.subject).toBe("empty body") },
  "04-broken-base64.eml": { accepted: (p) => expect(p.text).toMatch(/^Hello /) },
  "05-unknown-charset.eml": {
    accepted: (p) => expect(p.text).toBe("plain words in a charset nobody knows\n"),
  },
  "06-bad-quoted-printable.eml": {
    accepted: (p) => expect(p.text).toMatch(/^broken =ZZ escape and soft break/),
  },
  "07-deeply-nested-multipart.eml": { accepted: (p) => expect(p.text).toBe("deep text") },
  "08-unterminated-boundary.eml": {
    accepted: (p) => {
      expect(p.text).toBe("first part");
      expect(p.attachments.map((a) => a.filename)).toEqual(["cut.bin"]);
    },
  },
  "09-multipart-without-boundary.eml": { accepted: (p) => expect(p.subject).toBe("no boundary param") },
  "10-huge-header-line.eml": {
    accepted: (p) => {
      expect(p.subject.length).toBeGreaterThan(50_000);
      expect(p.headers["x-huge"]).toHaveLength(65_536);
      expect(p.text).toBe("body after huge headers\n");
    },
  },
  "11-8bit-in-headers.eml": {
    accepted: (p) => {
      expect([p.subject, p.fromName]).toEqual(["Grüße aus Köln", "Jürgen"]);
      expect(p.headers["x-latin1"]).toBe("café crème");
    },
  },
  "12-duplicated-headers.eml": {
    accepted: (p) => {
      expect(p.headers.received).toBe("from a by b\nfrom c by d");
      expect(p.headers.subject).toBe("first subject\nsecond subject");
      expect([p.subject, p.date, p.messageId]).toEqual([
        "first subject",
        "2024-05-06T07:08:09.000Z",
        "<one@example.com>",
      ]);
    },
  },
  "13-binary-garbage.bin": { accepted: (p) => expect(p.from).toBe(SENDER) },
  "14-invalid-date.eml": {
    accepted: (p) => {
      expect(p.date).toBeUndefined();
      expect(p.headers.date).toBe("the day after tomorrow, maybe");
    },
  },
  "15-malformed-addresses.eml": { accepted: (p) => expect(p.cc).toContain("good@example.com") },
  "16-broken-encoded-words.eml": { accepted: (p) => expect(p.subject).toContain("oké") },
  "17-attachment-without-name.eml": {
    accepted: (p) =>
      expect(p.attachments).toEqual([
        {
          id: expect.any(String),
          filename: "attachment-1",
          contentType: "application/octet-stream",
          size: 256,
        },
      ]),
  },
  "18-garbage-content-type.eml": {
    accepted: (p) => expect(p.text).toBe("body under a garbage content type\n"),
  },
  "19-header-line-without-colon.eml": {
    accepted: (p) =>
      expect(p.headers).toEqual({
        from: "Ada <ada@example.com>",
        to: "corpus@mail.test",
        subject: "no colon below",
        "x-after": "still here",
      }),
  },
  "20-nested-rfc822-malformed.eml": {
    accepted: (p) => expect(p.attachments.map((a) => a.contentType)).toEqual(["message/rfc822"]),
  },
  "21-html-only-broken.eml": {
    accepted: (p) => {
      expect(p.html).toContain("<script>alert(1)</script>");
      expect(p.text).toMatch(/^unclosed bold/);
    },
  },
  "22-nul-and-lone-cr-in-body.eml": { accepted: (p) => expect(p.text).toContain("before\u0000nul") },
  "23-utf16-odd-bytes.eml": { accepted: (p) => expect(p.text?.startsWith("hi")).toBe(true) },
  "24-dot-lines.eml": {
    accepted: (p) => expect(p.text).toBe(".hidden line starts with a dot\n..two dots\n.\nafter a lone dot\n"),
  },
  "25-many-headers.eml": { accepted: (p) => expect(Object.keys(p.headers)).toHaveLength(3003) },
  "26-rfc2231-and-broken-continuations.eml": {
    accepted: (p) => expect(p.attachments[0]?.filename).toBe("€ rates.txt"),
  },
  "27-proto-pollution-headers.eml": {
    accepted: (p) => {
      expect(Object.keys(p.headers)).toEqual(["from", "to", "subject", "constructor", "hasownproperty"]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  },
  "28-header-folding-abuse.eml": {
    accepted: (p) => {
      expect(p.subject).toMatch(/^fold( folded piece){500}$/);
      expect([p.headers["x-empty"], p.headers["x-spaces"]]).toEqual(["", ""]);
    },
  },
  "29-header-cost-over-limit.eml": {
    refused: { code: 554, text: /^5\.6\.0 Message could not be parsed: Max header size/ },
  },
  "30-too-many-mime-parts.eml": {
    refused: { code: 554, text: /^5\.6\.0 Message could not be parsed: Max allowed child nodes/ },
  },
};

const files = readdirSync(dir)
  .filter((f) => /^\d\d-/.test(f))
  .sort();
let h: Awaited<ReturnType<typeof startIngress>>;
const replies = new Map<string, Reply | undefined>();

beforeAll(async () => {
  h = await startIngress();
  h.ingress.bind(binding("corpus"));
  // all at once, each on its own connection: a message that upsets the server would upset the rest
  const results = await Promise.all(
    files.map((f) =>
      rawSend(h.port, SENDER, [`corpus+${f.slice(0, 2)}@${DOMAIN}`], readFileSync(join(dir, f))),
    ),
  );
  for (const [i, f] of files.entries()) replies.set(f, results[i]?.end);
});
afterAll(async () => h?.close());

describe("SMTP ingress: malformed and odd messages", () => {
  it("has at least 20 corpus messages, each with an expected outcome", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect(files).toEqual(Object.keys(expected).sort());
  });

  it.each(files)("%s is accepted with a payload or refused with a clear code", (file) => {
    const exp = expected[file]!;
    const reply = replies.get(file);
    const payloads = h.admitted.filter((a) => a.payload.tag === file.slice(0, 2)).map((a) => a.payload);
    if ("refused" in exp) {
      expect(reply?.code).toBe(exp.refused.code);
      expect(reply?.text).toMatch(exp.refused.text);
      expect(payloads).toEqual([]);
    } else {
      expect(reply).toEqual({ code: 250, text: expect.stringMatching(/^OK: queued as run-\d+$/) });
      expect(payloads).toHaveLength(1);
      exp.accepted(payloads[0]!);
    }
  });

  it("keeps serving afterwards: healthy, no error logged, and a normal message goes through", async () => {
    expect(h.ingress.health().status).toBe("listening");
    expect(h.logs.filter((l) => l.level >= 50)).toEqual([]);
    const before = h.admitted.length;
    await h.send({
      from: "ada@example.com",
      to: `corpus@${DOMAIN}`,
      subject: "after the corpus",
      text: "fine",
    });
    expect(h.admitted.slice(before).map((a) => a.payload.subject)).toEqual(["after the corpus"]);
  });
});
