import { describe, expect, it } from "vitest";
import { MIN_READABLE_ZOOM, openingViewport } from "./opening-viewport";

const view = { width: 1000, height: 600 };

describe("openingViewport", () => {
  it("fits and centres a small graph, never zooming in past 1", () => {
    expect(openingViewport({ x: 0, y: 0, width: 500, height: 100 }, view)).toEqual({
      x: 250,
      y: 250,
      zoom: 1,
    });
  });

  it("shrinks a graph that is a little too wide, down to the readable zoom", () => {
    const v = openingViewport({ x: 0, y: 0, width: 1200, height: 100 }, view);
    expect(v.zoom).toBeCloseTo((1000 - 48) / 1200);
    expect(v.zoom).toBeGreaterThanOrEqual(MIN_READABLE_ZOOM);
  });

  it("keeps a long graph at the readable zoom, starting from its left edge, centred vertically", () => {
    const v = openingViewport({ x: 100, y: -50, width: 5000, height: 200 }, view);
    expect(v.zoom).toBe(MIN_READABLE_ZOOM);
    expect(v.x).toBe(24 - 100 * MIN_READABLE_ZOOM);
    expect(v.y).toBe((600 - 200 * MIN_READABLE_ZOOM) / 2 + 50 * MIN_READABLE_ZOOM);
  });

  it("starts a tall graph from its top edge", () => {
    const v = openingViewport({ x: 0, y: 0, width: 200, height: 4000 }, view);
    expect(v).toEqual({ x: (1000 - 200 * MIN_READABLE_ZOOM) / 2, y: 24, zoom: MIN_READABLE_ZOOM });
  });
});
