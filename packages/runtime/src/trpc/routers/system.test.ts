import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller();
});
afterEach(async () => {
  await t.cleanup();
});

describe("system router", () => {
  it("reports a healthy database and the seeded example flow on first start", async () => {
    expect(await t.caller.system.info()).toMatchObject({
      db: "ok",
      smtp: { domain: "localhost", port: 2525 },
    });
    expect((await t.caller.flow.list()).map((f) => f.name)).toEqual(["Hello webhook (example)"]);
    expect((await t.caller.run.list()).runs).toEqual([]);
  });
});

describe("system.info", () => {
  it("shows the data dir's path to owners only", async () => {
    expect((await t.caller.system.info()).dataDir).toBe(t.host.config.dataDir);
    for (const role of ["editor", "viewer"] as const) {
      const info = await (await t.as(role)).caller.system.info();
      expect(info.dataDir, role).toBeNull();
      expect(JSON.stringify(info), role).not.toContain(t.host.config.dataDir);
    }
  });
});
