import { describe, expect, it } from "vitest";
import { layoutGraph } from "./elk-layout";
import { needsLayout } from "./overlap";

const node = (id: string, outputs = ["main"]) => ({ id, width: 240, height: 100, inputs: ["main"], outputs });
const edge = (from: string, port: string, to: string) => ({
  from: { node: from, port },
  to: { node: to, port: "main" },
});

describe("layoutGraph", () => {
  it("places a branching flow left to right with no two nodes overlapping", async () => {
    const nodes = [
      { ...node("start"), inputs: [] },
      node("check", ["true", "false"]),
      node("yes"),
      node("no"),
      node("merge"),
      node("reply"),
    ];
    const edges = [
      edge("start", "main", "check"),
      edge("check", "true", "yes"),
      edge("check", "false", "no"),
      edge("yes", "main", "merge"),
      edge("no", "main", "merge"),
      edge("merge", "main", "reply"),
    ];
    const at = await layoutGraph(nodes, edges);
    expect([...at.keys()].sort()).toEqual(["check", "merge", "no", "reply", "start", "yes"]);
    expect(
      needsLayout(nodes.map((n) => ({ id: n.id, position: at.get(n.id)!, width: 240, height: 100 }))),
    ).toBe(false);
    expect(at.get("start")!.x).toBeLessThan(at.get("check")!.x);
    expect(at.get("check")!.x).toBeLessThan(at.get("yes")!.x);
    // Port order is kept: the true branch sits above the false one.
    expect(at.get("yes")!.y).toBeLessThan(at.get("no")!.y);
  });

  it("lays out an edge to a port the node no longer has instead of throwing", async () => {
    const at = await layoutGraph([node("a"), node("b")], [edge("a", "gone", "b")]);
    expect(at.get("a")!.x).toBeLessThan(at.get("b")!.x);
  });
});
