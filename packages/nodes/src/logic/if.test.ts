import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { ifNode } from "./if";
import { executeNode } from "../__tests__/execute-node";

const route = async (condition: unknown) => {
  const out = await executeNode(ifNode, {
    config: { condition } as never,
    input: items({ a: 1 }),
    ctx: fakeCtx(),
  });
  return "port" in out ? out.port : undefined;
};

describe("logic.if", () => {
  it("routes to the true port when the condition holds", async () => {
    expect(await route(true)).toBe("true");
    expect(await route(1)).toBe("true");
    expect(await route("yes")).toBe("true");
  });

  it("routes to the false port when the value is falsy, including the strings false and 0", async () => {
    for (const v of [false, 0, "", null, undefined, "false", "FALSE", "0"])
      expect(await route(v)).toBe("false");
  });

  it("passes the items on unchanged", async () => {
    const input = items({ a: 1 });
    expect(await executeNode(ifNode, { config: { condition: true }, input, ctx: fakeCtx() })).toEqual({
      port: "true",
      items: input,
    });
  });

  it("runs per item", () => {
    expect(ifNode.runMode).toBe("perItem");
  });
});
