import { describe, expect, it } from "vitest";
import { jsonNestingPastLimit, MAX_JSON_DEPTH } from "./depth";

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("JSON nesting limit", () => {
  it("finds nothing in JSON nesting exactly to the limit, as text or as bytes", () => {
    expect(jsonNestingPastLimit(nested(MAX_JSON_DEPTH))).toBe(-1);
    expect(
      jsonNestingPastLimit(Buffer.from(`${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`)),
    ).toBe(-1);
  });

  it("names the offset of the bracket that opens one level too many", () => {
    expect(jsonNestingPastLimit(nested(MAX_JSON_DEPTH + 1))).toBe(5 * MAX_JSON_DEPTH);
    expect(
      jsonNestingPastLimit(Buffer.from(`[${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}]`)),
    ).toBe(MAX_JSON_DEPTH);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(jsonNestingPastLimit(`{"text":"${'\\"[{'.repeat(3 * MAX_JSON_DEPTH)}"}`)).toBe(-1);
  });

  it("honours a smaller limit", () => {
    expect(jsonNestingPastLimit("[[[[[[1]]]]]]", 2)).toBe(2);
  });
});
