import { describe, expect, it } from "vitest";
import {
  capChars,
  capUserFile,
  charLength,
  firstChars,
  firstUtf8Bytes,
  TRUNCATION_MARKER,
  utf8Length,
} from "./cap";

// No lone surrogates (String#isWellFormed is ES2024, beyond our lib target).
const wellFormed = (s: string) =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
const MARK = TRUNCATION_MARKER.length; // 15

describe("capChars", () => {
  it("returns text of at most N code points unchanged and says it was not cut", () => {
    expect(capChars("abc", 3)).toEqual({ text: "abc", truncated: false, originalLength: 3 });
    expect(capChars("", 0)).toEqual({ text: "", truncated: false, originalLength: 0 });
    const exact = "é".repeat(4000);
    expect(capChars(exact, 4000).text).toBe(exact);
  });

  it("cuts a 12 000-character text to exactly 4000 characters, marker included, and keeps the original length", () => {
    const answer = "abcdefghij".repeat(1200);
    const r = capChars(answer, 4000);
    expect(TRUNCATION_MARKER).toBe("\n[...truncated]");
    expect(r).toEqual({
      text: `${answer.slice(0, 4000 - MARK)}\n[...truncated]`,
      truncated: true,
      originalLength: 12_000,
    });
    expect(r.text.length).toBe(4000);
  });

  it("cuts a text one character over the limit", () => {
    expect(capChars("x".repeat(4001), 4000).text).toBe(`${"x".repeat(3985)}\n[...truncated]`);
  });

  it("counts multi-byte BMP characters as one each", () => {
    const text = "héllo wörld, 中文字符测试 and more";
    expect(capChars(text, 20).text).toBe("héllo\n[...truncated]");
    expect(capChars("中文字符测试", 6).text).toBe("中文字符测试");
  });

  it("counts an astral character (surrogate pair) as one code point", () => {
    const emoji = "😀".repeat(20); // 40 UTF-16 units, 20 code points
    expect(capChars(emoji, 20).text).toBe(emoji);
    const r = capChars("😀".repeat(10_000), 4000);
    expect(r.text).toBe(`${"😀".repeat(3985)}\n[...truncated]`);
    expect(charLength(r.text)).toBe(4000);
    expect(r.originalLength).toBe(10_000);
  });

  it("never splits a surrogate pair at the cut", () => {
    const straddles = capChars(`${"a".repeat(3984)}😀😀${"tail".repeat(10)}`, 4000).text;
    expect(straddles).toBe(`${"a".repeat(3984)}😀\n[...truncated]`);
    expect(wellFormed(straddles)).toBe(true);
    const before = capChars(`${"a".repeat(3984)}b😀${"c".repeat(20)}`, 4000).text;
    expect(before).toBe(`${"a".repeat(3984)}b\n[...truncated]`);
    expect(wellFormed(before)).toBe(true);
  });

  it("counts a lone surrogate as one code point", () => {
    expect(capChars(`a\ud800${"b".repeat(20)}`, 17).text).toBe("a\ud800\n[...truncated]");
  });

  it("keeps the first N characters without the marker when N is smaller than the marker", () => {
    expect(capChars("abcdefghijklmnopqrstuvwxyz", 10)).toEqual({
      text: "abcdefghij",
      truncated: true,
      originalLength: 26,
    });
    expect(capChars("😀".repeat(20), 3).text).toBe("😀😀😀");
    expect(capChars("abc", 0).text).toBe("");
  });

  it("is exactly the marker when N equals the marker's length", () => {
    expect(capChars("x".repeat(40), MARK).text).toBe(TRUNCATION_MARKER);
  });

  it("rejects a negative or fractional limit", () => {
    expect(() => capChars("x", -1)).toThrow(new RangeError("max must be a non-negative integer, got -1"));
    expect(() => capChars("x", 1.5)).toThrow(new RangeError("max must be a non-negative integer, got 1.5"));
  });
});

describe("capChars in UTF-8 bytes", () => {
  it("fits text and marker in N bytes without splitting a multi-byte character", () => {
    const r = capChars("€".repeat(20), 25, { unit: "utf8" }); // 60 bytes; 10 left beside the marker
    expect(r).toEqual({ text: "€€€\n[...truncated]", truncated: true, originalLength: 60 });
    expect(utf8Length(r.text)).toBe(24);
    expect(capChars("€€", 6, { unit: "utf8" }).text).toBe("€€");
  });

  it("takes its marker from the caller and keeps the start alone when the marker does not fit", () => {
    expect(capChars("x".repeat(40), 20, { unit: "utf8", marker: "\n…(truncated)" }).text).toBe(
      "xxxxx\n…(truncated)", // the marker is 15 bytes
    );
    expect(capChars("😀😀😀", 9, { unit: "utf8" }).text).toBe("😀😀");
  });

  it("measures UTF-8 and cuts on code points", () => {
    expect(utf8Length("a€😀")).toBe(8);
    expect(firstUtf8Bytes("a€😀", 7)).toBe("a€");
    expect(firstUtf8Bytes("a€😀", 0)).toBe("");
  });
});

describe("firstChars", () => {
  it("takes the first N code points without a marker, never half an emoji", () => {
    expect(firstChars("a😀b", 2)).toBe("a😀");
    expect(firstChars("abc", 10)).toBe("abc");
    expect(firstChars("abc", -1)).toBe("");
  });
});

describe("capUserFile", () => {
  it("keeps 2000 characters of PROFILE.md / MEMORY.md and then the note naming the cut", () => {
    expect(capUserFile("short")).toBe("short");
    expect(capUserFile("é".repeat(2001))).toBe(`${"é".repeat(2000)}\n[... truncated at 2000 chars]`);
    expect(capUserFile("x".repeat(2000))).toBe("x".repeat(2000));
  });
});
