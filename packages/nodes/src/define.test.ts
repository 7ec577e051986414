import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fakeCtx } from "./__tests__/fake-ctx";
import { defineNode, defineTrigger } from "./define";
import { NodeError } from "./errors";
import { executeNode } from "./__tests__/execute-node";

const echo = defineNode({
  type: "test.echo",
  typeVersion: 1,
  title: "Echo",
  description: "Echoes its config",
  category: "test",
  icon: "x",
  ports: ["main"],
  config: z.object({ n: z.number().int().default(1).describe("A number") }),
  example: {},
  execute: async ({ config }) => ({ items: [{ json: { n: config.n } }] }),
});

describe("defineNode", () => {
  it("defaults inputs to main and runMode to once", () => {
    expect(echo).toMatchObject({ kind: "action", inputs: ["main"], runMode: "once" });
  });

  it("hands execute the parsed config, defaults filled", async () => {
    expect(await executeNode(echo, { config: {}, input: [], ctx: fakeCtx() })).toEqual({
      items: [{ json: { n: 1 } }],
    });
  });

  it("refuses a config its schema rejects, naming the field and the node", async () => {
    const err = await executeNode(echo, { config: { n: "2" }, input: [], ctx: fakeCtx() }).catch((e) => e);
    expect(err).toBeInstanceOf(NodeError);
    expect(err.toInfo()).toEqual({
      code: "config_invalid",
      message: 'node "n1" field "n": Invalid input: expected number, received string',
      nodeId: "n1",
      field: "n",
      retryable: false,
    });
  });
});

describe("defineTrigger", () => {
  it("fixes kind, category and the single main port", () => {
    const t = defineTrigger({
      type: "test.t",
      typeVersion: 1,
      title: "T",
      description: "d",
      icon: "x",
      channel: "api",
      config: z.object({}),
      example: {},
      payload: z.object({}),
    });
    expect(t).toMatchObject({ kind: "trigger", category: "trigger", ports: ["main"] });
  });
});

describe("NodeError", () => {
  it("is retryable by default only for transient codes", () => {
    expect(new NodeError("http_failed", "x").retryable).toBe(true);
    expect(new NodeError("timeout", "x").retryable).toBe(true);
    expect(new NodeError("config_invalid", "x").retryable).toBe(false);
    expect(new NodeError("http_failed", "x", { retryable: false }).retryable).toBe(false);
  });
});
