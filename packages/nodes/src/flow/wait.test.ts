import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { waitNode } from "./wait";
import { executeNode } from "../__tests__/execute-node";

// fakeCtx's clock reads 2024-01-01T00:00:00.000Z.
const run = (config: unknown) =>
  executeNode(waitNode, { config: config, input: items({ a: 1 }), ctx: fakeCtx() });

describe("flow.wait", () => {
  it("asks to resume after a delay", async () => {
    expect(await run({ mode: "delay", amount: 90, unit: "seconds" })).toEqual({
      wait: { until: "2024-01-01T00:01:30.000Z" },
      items: items({ a: 1 }),
    });
  });

  it("asks to resume at a given time", async () => {
    expect(await run({ mode: "until", until: "2024-01-02T09:00:00+02:00" })).toMatchObject({
      wait: { until: "2024-01-02T07:00:00.000Z" },
    });
  });

  it("continues at once when the time has passed", async () => {
    expect(await run({ mode: "until", until: "2023-12-31T00:00:00Z" })).toEqual({ items: items({ a: 1 }) });
  });

  it("caps a wait at 366 days", async () => {
    expect(await run({ mode: "delay", amount: 1000, unit: "days" })).toMatchObject({
      wait: { until: "2025-01-01T00:00:00.000Z" },
    });
  });

  it("refuses a time that is not ISO", async () => {
    const err = await run({ mode: "until", until: "tomorrow" }).catch((e) => e);
    expect(err).toMatchObject({
      code: "config_invalid",
      message: 'node "n1" field "until": Invalid ISO datetime',
    });
  });
});
