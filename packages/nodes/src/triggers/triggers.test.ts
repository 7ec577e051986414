import { describe, expect, it } from "vitest";
import { parseConfig } from "../define";
import { cronProblem, cronTrigger } from "./cron";
import { emailTrigger } from "./email";
import { webhookSignatureHeader, webhookTrigger } from "./webhook";

const issues = (fn: () => unknown) => {
  try {
    fn();
    return "ok";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("trigger.cron", () => {
  it("refuses the wrong number of fields, bad values and unknown time zones, naming the field", () => {
    expect(issues(() => parseConfig(cronTrigger.config, { expression: "* * * *" }))).toBe(
      'config.expression: Cron expression "* * * *" has 4 fields; expected 5 (minute hour day-of-month month day-of-week) or 6 (second minute hour day-of-month month day-of-week)',
    );
    expect(issues(() => parseConfig(cronTrigger.config, { expression: "61 * * * *" }))).toBe(
      'config.expression: Cron expression "61 * * * *" has an invalid minute "61" (expected 0-59)',
    );
    expect(
      issues(() => parseConfig(cronTrigger.config, { expression: "* * * * *", timezone: "Mars/Base" })),
    ).toBe(
      'config.timezone: Unknown time zone "Mars/Base"; use an IANA name such as "Europe/Berlin" or "UTC"',
    );
  });

  it("accepts what node-cron accepts, with the same check the scheduler runs at activation", () => {
    for (const expression of ["0 9 * * 1-5", "*/30 * * * * *", "0 0 L * *", "0 9 * * MON#1", "@hourly"]) {
      expect(cronProblem(expression, "Europe/Berlin")).toBeUndefined();
      expect(parseConfig(cronTrigger.config, { expression })).toMatchObject({ expression });
    }
    expect(cronProblem("0 9 * * *", "Mars/Base")).toEqual({
      field: "timezone",
      message: 'Unknown time zone "Mars/Base"; use an IANA name such as "Europe/Berlin" or "UTC"',
    });
  });

  it("fills the overlap and missed-run policies with skip", () => {
    expect(parseConfig(cronTrigger.config, { expression: "* * * * *" })).toEqual({
      expression: "* * * * *",
      overlap: "skip",
      missed: "skip",
    });
  });
});

describe("trigger.webhook", () => {
  it("fills defaults for a bare path", () => {
    expect(parseConfig(webhookTrigger.config, { path: "orders" })).toEqual({
      path: "orders",
      methods: ["POST"],
      auth: { type: "none" },
      responseMode: "async",
      syncTimeoutMs: 30_000,
      bodyType: "json",
      maxBodyBytes: 16_777_216,
    });
  });

  it("refuses paths that climb, start with a slash or start with a parameter", () => {
    const refusal =
      "config.path: use letters, digits, - and _ separated by /; a later segment may be a :name parameter";
    for (const path of ["../admin", "/x", ":id", "orders/:", "orders/:1st", "orders/:a-b"])
      expect(issues(() => parseConfig(webhookTrigger.config, { path }))).toBe(refusal);
  });

  it("accepts :name segments after the first, which the hooks handler passes as payload params", () => {
    expect(parseConfig(webhookTrigger.config, { path: "orders/:id/events/:event_type" })).toMatchObject({
      path: "orders/:id/events/:event_type",
    });
  });

  it("needs a header name for a custom HMAC and knows the presets' headers", () => {
    expect(
      issues(() =>
        parseConfig(webhookTrigger.config, { path: "x", auth: { type: "hmac", credentialId: "c" } }),
      ),
    ).toBe("config.auth.header: a custom HMAC needs a header name");
    expect(webhookSignatureHeader({ type: "hmac", credentialId: "c", preset: "github" })).toBe(
      "X-Hub-Signature-256",
    );
    expect(webhookSignatureHeader({ type: "hmac", credentialId: "c", preset: "stripe" })).toBe(
      "Stripe-Signature",
    );
  });

  it("refuses a replay tolerance it could not enforce: on GitHub signatures, and on a custom HMAC without a timestamp header", () => {
    const hmac = (auth: object) =>
      issues(() =>
        parseConfig(webhookTrigger.config, { path: "x", auth: { type: "hmac", credentialId: "c", ...auth } }),
      );
    expect(hmac({ preset: "github", toleranceSec: 300 })).toBe(
      "config.auth.toleranceSec: GitHub signs only the body (no timestamp), so no replay window can be enforced; remove toleranceSec",
    );
    expect(hmac({ preset: "custom", header: "X-Sig", toleranceSec: 300 })).toBe(
      "config.auth.toleranceSec: a custom HMAC checks toleranceSec against a signed timestamp; name its timestampHeader",
    );
    expect(hmac({ preset: "stripe", timestampHeader: "X-Ts" })).toBe(
      "config.auth.timestampHeader: only a custom HMAC takes a timestampHeader (Stripe's timestamp is inside Stripe-Signature)",
    );
    const ok = parseConfig(webhookTrigger.config, {
      path: "x",
      auth: {
        type: "hmac",
        credentialId: "c",
        preset: "custom",
        header: "X-Sig",
        timestampHeader: "X-Ts",
        toleranceSec: 60,
      },
    });
    expect(ok.auth).toMatchObject({ timestampHeader: "X-Ts", toleranceSec: 60 });
  });

  it("refuses header auth without a credential", () => {
    expect(
      issues(() =>
        parseConfig(webhookTrigger.config, { path: "x", auth: { type: "header", name: "x-key" } }),
      ),
    ).toBe("config.auth.credentialId: Invalid input: expected string, received undefined");
  });
});

describe("trigger.email", () => {
  it("accepts addresses and whole domains as allowed senders", () => {
    expect(parseConfig(emailTrigger.config, { localPart: "in", allowFrom: ["a@b.test", "@c.test"] })).toEqual(
      {
        localPart: "in",
        allowFrom: ["a@b.test", "@c.test"],
      },
    );
  });

  it("refuses a local part with an @ and a sender pattern without one", () => {
    expect(issues(() => parseConfig(emailTrigger.config, { localPart: "a@b" }))).toBe(
      "config.localPart: use letters, digits and . _ + -",
    );
    expect(
      issues(() => parseConfig(emailTrigger.config, { localPart: "a", allowFrom: ["example.com"] })),
    ).toBe("config.allowFrom[0]: use an address or @domain");
  });
});
