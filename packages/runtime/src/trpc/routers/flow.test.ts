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

  it("reports at save a webhook credential whose type does not fit its auth mode, naming the node and field", async () => {
    const cred = await t.host.services.vault.create({
      name: "Webhook secret",
      type: "webhookSecret",
      data: { secret: "s3cret" },
    });
    const hook = {
      id: "hook",
      type: "trigger.webhook",
      config: { path: "guarded", auth: { type: "basic", credentialId: cred.id } },
    };
    const { id } = await t.caller.flow.create({ name: "Guarded", definition: { nodes: [], edges: [] } });
    const saved = await t.caller.flow.save({ id, definition: { nodes: [hook], edges: [] } });
    expect(saved.problems).toEqual([
      {
        code: "config_invalid",
        nodeId: "hook",
        field: "auth.credentialId",
        message: `node "hook" field "auth.credentialId": credential ${cred.id} is of type webhookSecret; basic auth needs one of type httpBasic`,
      },
    ]);
    await expect(t.caller.flow.setActive({ id, active: true })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("rejects a blank name with a field-level error", async () => {
    await expect(t.caller.flow.create({ name: "   ", definition: {} })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await t.host.flows.count()).toBe(0);
  });
});

describe("flow audit trail", () => {
  it("records who created, saved, activated and deleted a flow", async () => {
    const local = await testCaller({ seed: false });
    try {
      const { id } = await local.caller.flow.create({
        name: "Audited",
        definition: { nodes: [{ id: "t", type: "trigger.manual" }], edges: [] },
      });
      await local.caller.flow.save({
        id,
        definition: { nodes: [{ id: "t", type: "trigger.manual" }], edges: [] },
      });
      await local.caller.flow.setActive({ id, active: true });
      await local.caller.flow.delete({ id });
      const rows = await local.host.db.prisma.auditLog.findMany({
        where: { target: id },
        orderBy: { at: "asc" },
      });
      expect(rows.map((r) => r.action)).toEqual([
        "flow.created",
        "flow.saved",
        "flow.activated",
        "flow.deleted",
      ]);
      expect(new Set(rows.map((r) => r.actorId)).size).toBe(1);
    } finally {
      await local.cleanup();
    }
  });
});
