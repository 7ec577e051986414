import { describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { switchNode } from "./switch";
import { executeNode } from "../__tests__/execute-node";

const route = async (cases: { name: string; condition: unknown }[]) => {
  const out = await executeNode(switchNode, { config: { cases }, input: items({}), ctx: fakeCtx() });
  return "port" in out ? out.port : undefined;
};

describe("logic.switch", () => {
  it("routes to the first case whose condition holds", async () => {
    expect(
      await route([
        { name: "a", condition: false },
        { name: "b", condition: true },
        { name: "c", condition: true },
      ]),
    ).toBe("case2");
  });

  it("routes to default when no case holds", async () => {
    expect(await route([{ name: "a", condition: "false" }])).toBe("default");
  });

  it("declares a port for every possible case plus default", () => {
    expect(switchNode.ports).toEqual([...Array.from({ length: 10 }, (_, i) => `case${i + 1}`), "default"]);
  });

  it("refuses more cases than it has ports", async () => {
    const cases = Array.from({ length: 11 }, (_, i) => ({ name: `c${i}`, condition: false }));
    const err = await executeNode(switchNode, { config: { cases }, input: [], ctx: fakeCtx() }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({
      code: "config_invalid",
      message: 'node "n1" field "cases": Too big: expected array to have <=10 items',
    });
  });
});
