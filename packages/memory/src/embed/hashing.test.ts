import { describe, expect, it } from "vitest";
import { dot } from "./embedder";
import { createHashingEmbedder } from "./hashing";
import { stem } from "./text";

describe("hashing embedder", () => {
  const e = createHashingEmbedder();

  it("is deterministic, unit-length and 384-dimensional by default", async () => {
    const [a, b] = await e.embed(["Stripe payouts on Tuesday", "Stripe payouts on Tuesday"]);
    expect(a!.length).toBe(384);
    expect([...a!]).toEqual([...b!]);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    const [empty] = await e.embed([""]);
    expect(dot(empty!, empty!)).toBe(0);
  });

  it("puts texts sharing words and word forms closer than unrelated texts", async () => {
    const [q, same, other] = await e.embed([
      "invoicing reminders",
      "Invoice reminder sent",
      "Fire extinguisher check",
    ]);
    expect(dot(q!, same!)).toBeGreaterThan(0.3);
    expect(dot(q!, other!)).toBeLessThan(0.15);
  });

  it("matches fragments and typos through character n-grams", async () => {
    const [q, doc, other] = await e.embed(["laminat", "laminator pouches", "guest wifi password"]);
    expect(dot(q!, doc!)).toBeGreaterThan(dot(q!, other!) + 0.2);
  });

  it("stems common English suffixes", () => {
    expect(["invoices", "invoiced", "invoicing", "invoice"].map(stem)).toEqual([
      "invoic",
      "invoic",
      "invoic",
      "invoic",
    ]);
    expect(stem("business")).toBe("business");
    expect(stem("2024")).toBe("2024");
  });
});
