import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { splitNode } from "./split";
import { executeNode } from "../__tests__/execute-node";

const run = (config: unknown, input = items({ order: { id: 7, lines: [{ sku: "a" }, { sku: "b" }] } })) =>
  executeNode(splitNode, { config: config, input, ctx: fakeCtx() });

describe("flow.split", () => {
  it("makes one item per object element", async () => {
    expect(await run({ path: "order.lines" })).toEqual({
      items: [{ json: { sku: "a" } }, { json: { sku: "b" } }],
    });
  });

  it("wraps scalar elements in the named field and can copy the parent", async () => {
    const out = await run(
      { path: "tags", field: "tag", includeParent: "source" },
      items({ tags: ["x", "y"] }),
    );
    expect(out).toEqual({
      items: [
        { json: { tag: "x", source: { tags: ["x", "y"] } } },
        { json: { tag: "y", source: { tags: ["x", "y"] } } },
      ],
    });
  });

  it("fails with input_invalid naming the item when the field is not an array", async () => {
    const err = await run({ path: "order.lines" }, items({ order: { lines: [] } }, { order: {} })).catch(
      (e) => e,
    );
    expect(err).toMatchObject({
      code: "input_invalid",
      message: 'item 1: "order.lines" is missing, not an array',
    });
  });
});
