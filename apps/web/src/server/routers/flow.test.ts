import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
beforeEach(async () => {
  t = await testCaller({ seed: false });
});
afterEach(async () => {
  await t.cleanup();
});

describe("flow router", () => {
  it("creates, lists, saves a new version and reads it back", async () => {
    const { id } = await t.caller.flow.create({ name: "Orders", definition: { nodes: [] } });
    await t.caller.flow.save({ id, definition: { nodes: [{ id: "a" }] } });
    const got = await t.caller.flow.get({ id });
    expect(got.version.version).toBe(2);
    expect(got.version.definition).toEqual({ nodes: [{ id: "a" }] });
    expect((await t.caller.flow.list()).map((f) => f.name)).toEqual(["Orders"]);
  });

  it("answers NOT_FOUND for a missing flow and writes nothing", async () => {
    await expect(t.caller.flow.save({ id: "missing", definition: {} })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "flow missing not found",
    });
    await expect(t.caller.flow.delete({ id: "missing" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await t.host.db.prisma.flowVersion.count()).toBe(0);
  });

  it("rejects a blank name with a field-level error", async () => {
    await expect(t.caller.flow.create({ name: "   ", definition: {} })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await t.host.flows.count()).toBe(0);
  });
});
