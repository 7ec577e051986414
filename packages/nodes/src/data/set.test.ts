import type { Item } from "@switchyard/engine";
import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { setNode } from "./set";
import { executeNode } from "../__tests__/execute-node";

const run = (config: unknown, input: Item[] = items({ a: 1, nested: { keep: true } })) =>
  executeNode(setNode, { config: config, input, ctx: fakeCtx() });

describe("data.set", () => {
  it("sets nested fields without touching the input item", async () => {
    const input = items({ a: 1, nested: { keep: true } });
    const out = await run(
      {
        fields: [
          { name: "nested.added", value: 2 },
          { name: "b", value: "x" },
        ],
      },
      input,
    );
    expect(out).toEqual({ items: [{ json: { a: 1, b: "x", nested: { keep: true, added: 2 } } }] });
    expect(input[0]!.json).toEqual({ a: 1, nested: { keep: true } });
  });

  it("keeps only the set fields when asked", async () => {
    const out = await run({ fields: [{ name: "only", value: true }], keepOnlySet: true });
    expect(out).toEqual({ items: [{ json: { only: true } }] });
  });

  it("keeps binary references", async () => {
    const bin = { file: { id: "b1", mimeType: "text/plain", size: 3 } };
    const out = await run({ fields: [{ name: "x", value: 1 }] }, [{ json: {}, binary: bin }]);
    expect(out).toEqual({ items: [{ json: { x: 1 }, binary: bin }] });
  });

  it("refuses a path that would reach the prototype", async () => {
    const err = await run({ fields: [{ name: "__proto__.polluted", value: 1 }] }).catch((e) => e);
    expect(err).toMatchObject({
      code: "config_invalid",
      message: 'path "__proto__.polluted" uses the reserved segment "__proto__"',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses an empty field list", async () => {
    const err = await run({ fields: [] }).catch((e) => e);
    expect(err).toMatchObject({
      code: "config_invalid",
      message: 'node "n1" field "fields": Too small: expected array to have >=1 items',
    });
  });
});
