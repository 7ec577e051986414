import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForRun } from "../../__tests__/test-host";
import { testCaller } from "../__tests__/caller";

let t: Awaited<ReturnType<typeof testCaller>>;
// One host for the file (each test makes its own flows): starting one per test is most of the cost.
beforeAll(async () => {
  t = await testCaller({ seed: false });
  await t.host.start();
}, 30_000);
afterAll(async () => {
  await t.cleanup();
});

/** webhook → shape (set) → last (noop): expressions in `last` read what `shape` produced. */
const flow = (pinData?: Record<string, unknown>) => ({
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path: "orders" } },
    {
      id: "shape",
      type: "data.set",
      config: { fields: [{ name: "customer", value: "={ 'name': trigger.body.name, 'tags': ['vip'] }" }] },
    },
    { id: "last", type: "flow.noop" },
  ],
  edges: [
    { from: { node: "hook" }, to: { node: "shape" } },
    { from: { node: "shape" }, to: { node: "last" } },
  ],
  ...(pinData ? { pinData } : {}),
});

describe("expression help", () => {
  it("offers the field paths of the last run's data and previews a value with the engine", async () => {
    const { id } = await t.caller.flow.create({ name: "Orders", definition: flow() });
    const { runId } = await t.caller.flow.run({ id, payload: { body: { name: "Ada" } } });
    expect((await waitForRun(t.host, runId)).status).toBe("succeeded");

    const help = await t.caller.flow.expressionHelp({ id, nodeId: "last" });
    expect(help.source).toEqual({ kind: "run", runId });
    expect(help.paths).toEqual(
      expect.arrayContaining([
        "item.customer",
        "item.customer.name",
        "item.customer.tags[0]",
        "trigger.body.name",
        "nodes.shape.item.customer.name",
      ]),
    );
    expect(
      await t.caller.flow.previewExpression({ id, nodeId: "last", value: "=$uppercase(item.customer.name)" }),
    ).toEqual({ source: { kind: "run", runId }, ok: true, value: '"ADA"', truncated: false });
    expect(
      await t.caller.flow.previewExpression({ id, nodeId: "last", value: "Hi {{ item.customer.name }}!" }),
    ).toMatchObject({ ok: true, value: '"Hi Ada!"' });
  }, 20_000);

  it("uses a parent's pinned items before the last run", async () => {
    const { id } = await t.caller.flow.create({
      name: "Orders",
      definition: flow({ shape: [{ json: { customer: { name: "Pinned Grace" } } }] }),
    });
    const help = await t.caller.flow.expressionHelp({ id, nodeId: "last" });
    expect(help.source).toEqual({ kind: "pinned" });
    expect(
      await t.caller.flow.previewExpression({ id, nodeId: "last", value: "=item.customer.name" }),
    ).toMatchObject({ ok: true, value: '"Pinned Grace"' });
  });

  it("offers the trigger's payload schema before any run", async () => {
    const { id } = await t.caller.flow.create({ name: "Orders", definition: flow() });
    const help = await t.caller.flow.expressionHelp({ id, nodeId: "shape" });
    expect(help.source).toEqual({ kind: "schema" });
    expect(help.paths).toEqual(expect.arrayContaining(["item.body", "item.headers", "trigger.query"]));
  });

  it("answers a broken or over-limit expression with the engine's error, naming the node and field", async () => {
    const { id } = await t.caller.flow.create({ name: "Orders", definition: flow() });
    const broken = await t.caller.flow.previewExpression({
      id,
      nodeId: "shape",
      field: "fields.0.value",
      value: "=item.(",
    });
    expect(broken).toMatchObject({ ok: false });
    expect(broken.ok ? "" : broken.message).toMatch(/^node "shape" field "fields.0.value" at position \d+/);
    const huge = await t.caller.flow.previewExpression({
      id,
      nodeId: "shape",
      value: '=$pad("", 100000000, "x")',
    });
    expect(huge).toMatchObject({ ok: false });
    await expect(
      t.caller.flow.previewExpression({ id, nodeId: "shape", value: `=${"1".repeat(4000)}` }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(t.caller.flow.previewExpression({ id, nodeId: "nope", value: "=1" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: 'node "nope" is not in the saved flow (save it first)',
    });
  });

  it("refuses callers who are not signed in", async () => {
    const { id } = await t.caller.flow.create({ name: "Orders", definition: flow() });
    await expect(
      t.anonymous.flow.previewExpression({ id, nodeId: "shape", value: "=1" }),
    ).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
