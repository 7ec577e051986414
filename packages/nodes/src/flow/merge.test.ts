import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { mergeNode } from "./merge";
import { executeNode } from "../__tests__/execute-node";

const a = items({ id: 1, name: "Ada" }, { id: 2, name: "Bob" }, { id: 3, name: "Cy" });
const b = items({ id: 1, total: 10 }, { id: 1, total: 11 }, { id: 3, total: 30 }, { id: "3", total: 99 });
const run = (config: unknown, byPort: boolean = true) =>
  executeNode(mergeNode, {
    config: config as never,
    input: [...a, ...b],
    ...(byPort ? { inputsByPort: { a, b } } : {}),
    ctx: fakeCtx(),
  });

describe("flow.merge", () => {
  it("appends a's items before b's", async () => {
    expect(await run({ mode: "append" })).toEqual({ items: [...a, ...b] });
  });

  it("appends the concatenated input when per-port items are absent", async () => {
    expect(await run({}, false)).toEqual({ items: [...a, ...b] });
  });

  it("joins by key (inner), one item per match, and keeps 1 and '1' apart", async () => {
    expect(await run({ mode: "byKey", key: "id" })).toEqual({
      items: [
        { json: { id: 1, name: "Ada", total: 10 } },
        { json: { id: 1, name: "Ada", total: 11 } },
        { json: { id: 3, name: "Cy", total: 30 } },
      ],
    });
  });

  it("keeps unmatched a items in a left join", async () => {
    const out = await run({ mode: "byKey", key: "id", join: "left" });
    expect("items" in out && out.items.map((i) => i.json.name)).toEqual(["Ada", "Ada", "Bob", "Cy"]);
  });

  it("collects both inputs into one item in waitAll mode", async () => {
    expect(await run({ mode: "waitAll" })).toEqual({
      items: [{ json: { a: a.map((i) => i.json), b: b.map((i) => i.json) } }],
    });
  });

  it("needs a key for byKey", async () => {
    const err = await run({ mode: "byKey" }).catch((e) => e);
    expect(err).toMatchObject({
      code: "config_invalid",
      message: 'node "n1" field "key": byKey needs a key',
    });
  });

  it("says so when the executor does not pass per-port items for byKey", async () => {
    const err = await run({ mode: "byKey", key: "id" }, false).catch((e) => e);
    expect(err).toMatchObject({
      code: "not_configured",
      message: "merge mode byKey needs the items of each input (inputsByPort)",
    });
  });
});
