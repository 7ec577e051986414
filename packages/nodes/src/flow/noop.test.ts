import { expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { noopNode } from "./noop";

it("passes items through unchanged", async () => {
  const input = items({ a: 1 }, { b: 2 });
  expect(await noopNode.execute({ config: {}, input, ctx: fakeCtx() })).toEqual({ items: input });
});
