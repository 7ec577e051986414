import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNext("/flows/abc?tab=runs")).toBe("/flows/abc?tab=runs");
  });

  it("falls back to / for anything that could leave the site", () => {
    for (const bad of [
      null,
      undefined,
      "",
      "https://evil.example",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
    ]) {
      expect(safeNext(bad)).toBe("/");
    }
  });
});
