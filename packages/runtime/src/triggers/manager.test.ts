import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost } from "../__tests__/test-host";

let t: Awaited<ReturnType<typeof startTestHost>>;
beforeEach(async () => {
  t = await startTestHost({ SWITCHYARD_SMTP_DOMAIN: "flows.test" });
});
afterEach(async () => {
  await t.close();
});

const mailFlow = {
  nodes: [{ id: "mail", type: "trigger.email", config: { localPart: "orders" } }],
  edges: [],
};
const hookFlow = { nodes: [{ id: "hook", type: "trigger.webhook", config: { path: "orders" } }], edges: [] };

describe("the trigger manager", () => {
  it("refuses an e-mail address another flow uses as a bad request naming the trigger, and keeps the first flow", async () => {
    const first = await t.host.flows.create({ name: "Orders", definition: mailFlow });
    await t.host.control.setActive(first.id, true);
    const second = await t.host.flows.create({ name: "Orders too", definition: mailFlow });
    await expect(t.host.control.setActive(second.id, true)).rejects.toMatchObject({
      name: "RunControlError",
      code: "bad_request",
      message: `cannot activate: trigger mail: e-mail address orders@flows.test is already used by flow ${first.id}`,
    });
    expect((await t.host.flows.get(second.id))?.active).toBe(false);
    expect(t.host.services.triggers.health(second.id)).toBeUndefined();
    expect(t.host.services.triggers.health(first.id)).toMatchObject({
      type: "trigger.email",
      status: "listening",
    });
  });

  it("refuses a webhook path another flow serves the same way", async () => {
    const first = await t.host.flows.create({ name: "Hook", definition: hookFlow });
    await t.host.control.setActive(first.id, true);
    const second = await t.host.flows.create({ name: "Hook too", definition: hookFlow });
    await expect(t.host.control.setActive(second.id, true)).rejects.toMatchObject({
      code: "bad_request",
      message: `cannot activate: trigger hook: webhook path /hooks/orders is already used by flow ${first.id}`,
    });
  });

  it("binds every other active flow at start-up when one cannot bind, and shows why in its health", async () => {
    const first = await t.host.flows.create({ name: "Hook", definition: hookFlow });
    const clash = await t.host.flows.create({ name: "Hook too", definition: hookFlow });
    const mail = await t.host.flows.create({ name: "Mail", definition: mailFlow });
    // Marked active behind the manager's back, as a database restored from elsewhere could be.
    for (const f of [first, clash, mail]) await t.host.flows.setActive(f.id, true);
    await t.host.services.triggers.syncAll();
    expect(t.host.services.triggers.health(mail.id)).toMatchObject({
      type: "trigger.email",
      status: "listening",
    });
    // Whichever of the two hooks bound first keeps the path; the other shows the clash.
    const [winner, loser] =
      t.host.services.triggers.health(first.id)?.status === "listening" ? [first, clash] : [clash, first];
    expect(t.host.services.triggers.health(winner.id)).toMatchObject({
      type: "trigger.webhook",
      status: "listening",
    });
    expect(t.host.services.triggers.health(loser.id)).toEqual({
      flowId: loser.id,
      nodeId: "hook",
      type: "trigger.webhook",
      status: "error",
      lastError: `trigger hook: webhook path /hooks/orders is already used by flow ${winner.id}`,
    });
  });

  it("moves a flow whose trigger changes type to the new listener and releases the old one", async () => {
    const { id } = await t.host.flows.create({ name: "Orders", definition: hookFlow });
    await t.host.control.setActive(id, true);
    await t.host.flows.saveVersion(id, mailFlow);
    await t.host.control.afterSave(id);
    expect(t.host.services.triggers.health(id)).toMatchObject({ type: "trigger.email", nodeId: "mail" });
    expect(t.host.services.hooks.production.match("orders")).toBeUndefined();
    // The path is free again: another flow can take it.
    const other = await t.host.flows.create({ name: "Hook", definition: hookFlow });
    await expect(t.host.control.setActive(other.id, true)).resolves.toMatchObject({ active: true });
  });
});
