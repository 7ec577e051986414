import { describe, expect, it } from "vitest";
import { NodeError, NonRetryableError, toNodeError } from "./errors";

describe("NodeError", () => {
  it("derives retryability from the code unless told otherwise", () => {
    expect(new NodeError("http_failed", "503").retryable).toBe(true);
    expect(new NodeError("config_invalid", "bad").retryable).toBe(false);
    expect(new NodeError("http_failed", "404", { retryable: false }).retryable).toBe(false);
    expect(new NonRetryableError("http_failed", "gone").retryable).toBe(false);
  });

  it("normalises anything thrown: NodeErrors keep their code and get the node id, the rest become internal", () => {
    const own = new NodeError("policy_denied", "no");
    expect(toNodeError(own, "n1")).toBe(own);
    expect(own.nodeId).toBe("n1");
    const bug = toNodeError(new TypeError("x is undefined"), "n2");
    expect(bug.toInfo()).toEqual({
      code: "internal",
      message: "x is undefined",
      nodeId: "n2",
      retryable: true,
      stack: expect.stringContaining("TypeError: x is undefined"),
    });
    expect(toNodeError("plain string").message).toBe("plain string");
    expect(toNodeError({ weird: 1 }).message).toBe('{"weird":1}');
  });

  it("leaves the stack out of user mistakes", () => {
    const info = new NodeError("config_invalid", "bad", {
      nodeId: "n",
      field: "url",
      cause: new Error("z"),
    }).toInfo();
    expect(info).toEqual({
      code: "config_invalid",
      message: "bad",
      nodeId: "n",
      field: "url",
      retryable: false,
    });
  });
});
