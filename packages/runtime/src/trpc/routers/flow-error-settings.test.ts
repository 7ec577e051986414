import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
// One host for the file (each test makes its own flows): starting one per test is most of the cost.
beforeAll(async () => {
  t = await testCaller({ seed: false });
}, 30_000);
afterAll(async () => {
  await t.cleanup();
});

const manualFlow = (settings: Record<string, unknown> = {}) => ({
  nodes: [{ id: "start", type: "trigger.manual" }],
  settings,
});
const errorFlow = { nodes: [{ id: "failure", type: "trigger.error" }] };

describe("a flow's failure settings", () => {
  it("lists only flows with an Error trigger as error flow choices", async () => {
    const handler = await t.caller.flow.create({ name: "Alert ops", definition: errorFlow });
    const orders = await t.caller.flow.create({ name: "Orders", definition: manualFlow() });
    const choices = await t.caller.flow.errorFlowChoices();
    expect(choices).toContainEqual({ id: handler.id, name: "Alert ops" });
    expect(choices.map((c) => c.id)).not.toContain(orders.id);
  });

  it("reports at save an error flow that is the flow itself, missing, or without an Error trigger", async () => {
    const plain = await t.caller.flow.create({ name: "Plain", definition: manualFlow() });
    const { id } = await t.caller.flow.create({ name: "Orders", definition: manualFlow() });
    const problemsFor = async (errorFlowId: string) =>
      (await t.caller.flow.save({ id, definition: manualFlow({ errorFlowId }) })).problems.map(
        (p) => p.message,
      );
    expect(await problemsFor(id)).toEqual(["settings.errorFlowId: a flow cannot be its own error flow"]);
    expect(await problemsFor("gone")).toEqual(["settings.errorFlowId: flow gone does not exist"]);
    expect(await problemsFor(plain.id)).toEqual([
      'settings.errorFlowId: flow "Plain" has no Error trigger, so it cannot be started by a failure',
    ]);
  });

  it("reports at save a failure e-mail credential that is missing or not an SMTP server", async () => {
    const secret = await t.host.services.vault.create({
      name: "Hook secret",
      type: "webhookSecret",
      data: { secret: "s3cret" },
    });
    const { id } = await t.caller.flow.create({ name: "Orders", definition: manualFlow() });
    const problemsFor = async (credentialId: string) =>
      (
        await t.caller.flow.save({
          id,
          definition: manualFlow({ failureEmail: { credentialId, to: ["ops@example.test"] } }),
        })
      ).problems.map((p) => p.message);
    expect(await problemsFor("nope")).toEqual([
      "settings.failureEmail.credentialId: credential nope does not exist",
    ]);
    expect(await problemsFor(secret.id)).toEqual([
      `settings.failureEmail.credentialId: credential ${secret.id} is webhookSecret, not an SMTP server`,
    ]);
  });
});
