import { expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { noopNode } from "./noop";
import { executeNode } from "../__tests__/execute-node";

it("passes items through unchanged", async () => {
  const input = items({ a: 1 }, { b: 2 });
  expect(await executeNode(noopNode, { config: {}, input, ctx: fakeCtx() })).toEqual({ items: input });
});
