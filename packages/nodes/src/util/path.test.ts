import { describe, expect, it } from "vitest";
import { getPath, setPath } from "./path";

describe("dot paths", () => {
  it("reads nested fields and array indexes", () => {
    expect(getPath({ a: { b: [{ c: 1 }] } }, "a.b.0.c")).toBe(1);
    expect(getPath({ a: 1 }, "a.b")).toBeUndefined();
  });

  it("does not read inherited properties", () => {
    expect(getPath({}, "toString")).toBeUndefined();
  });

  it("creates objects on the way when writing", () => {
    expect(setPath({ a: 1 }, "b.c", 2)).toEqual({ a: 1, b: { c: 2 } });
  });

  it("refuses empty and prototype segments", () => {
    expect(() => setPath({}, "a..b", 1)).toThrow('path "a..b" has an empty segment');
    expect(() => getPath({}, "constructor.prototype")).toThrow(
      'path "constructor.prototype" uses the reserved segment "constructor"',
    );
  });
});
