import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { NodeError } from "../errors";
import { stopNode } from "./stop";
import { executeNode } from "../__tests__/execute-node";

describe("flow.stop", () => {
  it("ends the branch quietly and logs the message", async () => {
    const ctx = fakeCtx();
    expect(
      await executeNode(stopNode, { config: { message: "nothing to do" }, input: items({}), ctx }),
    ).toEqual({ outputs: {} });
    expect(ctx.logs).toEqual([{ level: "info", message: "nothing to do", data: undefined }]);
  });

  it("fails the run with a non-retryable error carrying the message", async () => {
    const err = await executeNode(stopNode, {
      config: { outcome: "error", message: "Order has no customer" } as never,
      input: [],
      ctx: fakeCtx(),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(NodeError);
    expect(err).toMatchObject({
      code: "input_invalid",
      message: "Order has no customer",
      retryable: false,
      nodeId: "n1",
    });
  });
});
