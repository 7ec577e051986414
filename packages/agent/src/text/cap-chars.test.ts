import { describe, expect, it } from "vitest";
import { capChars, capUserFile, charLength, RESULT_TRUNCATION_MARK } from "./cap-chars";

describe("capChars (max_result_chars)", () => {
  it("keeps exactly the first 4000 characters of a 10 000-character answer and marks it", () => {
    const answer = "abcdefghij".repeat(1000);
    const r = capChars(answer, 4000);
    expect(r.text).toBe(`${answer.slice(0, 4000)}\n[...truncated]`);
    expect(r.text.length).toBe(4000 + RESULT_TRUNCATION_MARK.length);
    expect(r.truncated).toBe(true);
    expect(r.originalLength).toBe(10_000);
  });

  it("never splits an emoji: characters are code points, not UTF-16 units", () => {
    const answer = "😀".repeat(10_000);
    const r = capChars(answer, 4000);
    const kept = r.text.slice(0, -RESULT_TRUNCATION_MARK.length);
    expect(charLength(kept)).toBe(4000);
    expect(kept).toBe("😀".repeat(4000));
    expect(r.originalLength).toBe(10_000);
    // A mixed string whose cut point falls right after a surrogate-pair boundary.
    const mixed = `${"a".repeat(3999)}😀😀tail`;
    expect(capChars(mixed, 4000).text).toBe(`${"a".repeat(3999)}😀\n[...truncated]`);
  });

  it("returns text at or under the cap unchanged", () => {
    expect(capChars("short", 4000)).toEqual({ text: "short", truncated: false, originalLength: 5 });
    const exact = "é".repeat(4000);
    expect(capChars(exact, 4000).text).toBe(exact);
  });

  it("caps user files at 2000 characters with the truncation note", () => {
    const profile = "p".repeat(2500);
    expect(capUserFile(profile)).toBe(`${"p".repeat(2000)}\n[... truncated at 2000 chars]`);
    expect(capUserFile("small")).toBe("small");
  });
});
