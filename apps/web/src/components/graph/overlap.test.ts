import { describe, expect, it } from "vitest";
import { boxesOverlap, needsLayout } from "./overlap";

const box = (id: string, x: number, y: number) => ({ id, position: { x, y }, width: 240, height: 100 });

describe("needsLayout", () => {
  it("asks for a layout when nodes were given no positions (all at 0,0)", () => {
    expect(needsLayout([box("a", 0, 0), box("b", 0, 0), box("c", 0, 0)])).toBe(true);
  });

  it("asks for a layout when one node partly covers another", () => {
    expect(needsLayout([box("a", 0, 0), box("b", 500, 0), box("c", 200, 60)])).toBe(true);
  });

  it("leaves a laid-out flow alone, even when boxes touch edge to edge", () => {
    expect(needsLayout([box("a", 0, 0), box("b", 240, 0), box("c", 240, 100)])).toBe(false);
  });

  it("leaves a single node or an empty flow alone", () => {
    expect(needsLayout([box("a", 0, 0)])).toBe(false);
    expect(needsLayout([])).toBe(false);
  });
});

describe("boxesOverlap", () => {
  it("is symmetric", () => {
    expect(boxesOverlap(box("a", 0, 0), box("b", 100, 50))).toBe(true);
    expect(boxesOverlap(box("b", 100, 50), box("a", 0, 0))).toBe(true);
  });
});
