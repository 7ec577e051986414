import { describe, expect, it } from "vitest";
import { capChars, capUserFile, TRUNCATION_MARKER } from "./cap";

// No lone surrogates (String#isWellFormed is ES2024, beyond our lib target).
const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe("capChars", () => {
  it("returns text of at most N code points unchanged", () => {
    expect(capChars("abc", 3)).toBe("abc");
    expect(capChars("", 0)).toBe("");
  });

  it("keeps the first N code points and appends the marker when longer", () => {
    expect(capChars("abcdef", 4)).toBe("abcd\n[...truncated]");
    expect(TRUNCATION_MARKER).toBe("\n[...truncated]");
  });

  it("counts multi-byte BMP characters as one each", () => {
    expect(capChars("héllo wörld", 5)).toBe("héllo\n[...truncated]");
    expect(capChars("中文字符测试", 6)).toBe("中文字符测试");
    expect(capChars("中文字符测试", 2)).toBe("中文\n[...truncated]");
  });

  it("counts an astral character (surrogate pair) as one code point", () => {
    const four = "😀😀😀😀"; // 8 UTF-16 units, 4 code points
    expect(capChars(four, 4)).toBe(four);
    expect(capChars(four, 3)).toBe("😀😀😀\n[...truncated]");
  });

  it("never splits a surrogate pair at the cut", () => {
    const text = `${"a".repeat(3999)}😀tail`;
    const out = capChars(text, 4000);
    expect(out).toBe(`${"a".repeat(3999)}😀\n[...truncated]`);
    expect(wellFormed(out)).toBe(true);
    const before = capChars(`${"a".repeat(3999)}b😀`, 4000);
    expect(before).toBe(`${"a".repeat(3999)}b\n[...truncated]`);
    expect(wellFormed(before)).toBe(true);
  });

  it("counts a lone surrogate as one code point", () => {
    expect(capChars("a\ud800b", 2)).toBe("a\ud800\n[...truncated]");
  });

  it("rejects a negative or fractional limit", () => {
    expect(() => capChars("x", -1)).toThrow(RangeError);
    expect(() => capChars("x", 1.5)).toThrow(RangeError);
  });
});

describe("capUserFile", () => {
  it("caps PROFILE.md / MEMORY.md at 2000 chars with the truncation note", () => {
    expect(capUserFile("short")).toBe("short");
    expect(capUserFile("é".repeat(2001))).toBe(`${"é".repeat(2000)}\n[... truncated at 2000 chars]`);
    expect(capUserFile("x".repeat(2000))).toBe("x".repeat(2000));
  });
});
