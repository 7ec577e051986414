import { describe, expect, it } from "vitest";
import { createTestRegistry } from "../../test/registry";
import { compileGraph } from "./graph";
import { FlowDefinition } from "@switchyard/contracts/flow";

const graphOf = (nodes: [string, string][], edges: [string, string, string?][]) =>
  compileGraph(
    FlowDefinition.parse({
      nodes: nodes.map(([id, type]) => ({ id, type })),
      edges: edges.map(([a, b, port]) => ({
        from: { node: a, port: port ?? "main" },
        to: { node: b, port: "main" },
      })),
    }),
    createTestRegistry(),
  );

describe("compileGraph", () => {
  it("finds back edges and the body of nested loops", () => {
    const g = graphOf(
      [
        ["t", "test.trigger"],
        ["outer", "test.loop"],
        ["inner", "test.loop"],
        ["b", "test.set"],
        ["c", "test.set"],
        ["d", "test.set"],
      ],
      [
        ["t", "outer"],
        ["outer", "inner", "loop"],
        ["inner", "b", "loop"],
        ["b", "inner"],
        ["inner", "c", "done"],
        ["c", "outer"],
        ["outer", "d", "done"],
      ],
    );
    expect([...g.backEdges].sort()).toEqual([3, 5]);
    expect([...g.loopBodies.get("inner")!]).toEqual(["b"]);
    expect([...g.loopBodies.get("outer")!].sort()).toEqual(["b", "c", "inner"]);
  });
});
