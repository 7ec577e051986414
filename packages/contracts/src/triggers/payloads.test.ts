import { describe, expect, it } from "vitest";
import { cronPayload } from "./cron";
import { emailPayload } from "./email";
import { errorPayload } from "./error";
import { runPayload } from "./manual";
import { webhookPayload } from "./webhook";

describe("trigger payloads", () => {
  it("cron: declares the payload every scheduled run receives, and nothing else", () => {
    const payload = {
      scheduledAt: "2025-01-06T08:00:00.000Z",
      firedAt: "2025-01-06T08:00:00.012Z",
      expression: "0 9 * * 1-5",
      timezone: "Europe/Berlin",
      missed: false,
    };
    expect(cronPayload.parse(payload)).toEqual(payload);
    expect(cronPayload.safeParse({ ...payload, scheduledFor: payload.scheduledAt }).success).toBe(false);
    expect(cronPayload.safeParse({ ...payload, missed: undefined }).success).toBe(false);
  });

  it("webhook: declares the path params beside method, path, headers, query, body and receivedAt", () => {
    const p = {
      method: "POST",
      path: "/hooks/orders/42",
      params: { id: "42" },
      headers: { "content-type": "application/json" },
      query: { a: "1", b: ["2", "3"] },
      body: { id: 1 },
      receivedAt: "2024-01-01T00:00:00.000Z",
    };
    expect(webhookPayload.parse(p)).toEqual(p);
    expect(webhookPayload.parse({ ...p, body: null }).body).toBeNull();
    const { params: _, ...withoutParams } = p;
    expect(webhookPayload.safeParse(withoutParams).error?.issues.map((i) => i.path)).toEqual([["params"]]);
    const { body: __, ...withoutBody } = p;
    expect(webhookPayload.safeParse(withoutBody).success).toBe(false);
    expect(webhookPayload.safeParse({ ...p, extra: 1 }).success).toBe(false);
  });

  it("e-mail: declares what the SMTP listener emits, stored and dropped attachments included", () => {
    const p = {
      from: "ada@example.com",
      to: ["orders@flows.test"],
      cc: [],
      subject: "Invoice",
      headers: { subject: "Invoice" },
      attachments: [{ id: "att_1", filename: "a.pdf", contentType: "application/pdf", size: 10 }],
      droppedAttachments: [
        { filename: "big.bin", contentType: "application/octet-stream", size: 9, reason: "total_too_large" },
      ],
      recipient: "orders@flows.test",
    };
    expect(emailPayload.parse(p)).toEqual(p);
    // The first declaration (nodes) had attachment `binaryKey` and no `recipient`; neither is emitted.
    const withBinaryKey = { ...p, attachments: [{ ...p.attachments[0], binaryKey: "a" }] };
    expect(emailPayload.safeParse(withBinaryKey).success).toBe(false);
    const { recipient: _, ...withoutRecipient } = p;
    expect(emailPayload.safeParse(withoutRecipient).success).toBe(false);
  });

  it("manual and API runs: any JSON object", () => {
    expect(runPayload.parse({ name: "Ada", n: [1] })).toEqual({ name: "Ada", n: [1] });
    expect(runPayload.safeParse([1, 2]).success).toBe(false);
  });

  it("error flows: the failed run's flow, run with its link, node (or null) and error, nothing else", () => {
    const failure = {
      flow: { id: "f1", name: "Orders" },
      run: { id: "r1", status: "failed", channel: "webhook", url: "https://sy.example/runs/r1" },
      node: { id: "check" },
      error: { code: "input_invalid", message: "no customer" },
    };
    expect(errorPayload.parse(failure)).toEqual(failure);
    expect(errorPayload.parse({ ...failure, node: null }).node).toBeNull();
    expect(errorPayload.safeParse({ ...failure, extra: 1 }).success).toBe(false);
    expect(errorPayload.safeParse({ ...failure, run: { ...failure.run, status: "succeeded" } }).success).toBe(
      false,
    );
  });
});
