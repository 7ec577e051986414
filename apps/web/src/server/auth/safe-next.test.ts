import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

/** Where a browser at our origin ends up after `location.assign(next)` / a redirect to `next`. */
const landsOn = (next: string) => new URL(safeNext(next), "http://localhost:3000/signin");

describe("safeNext", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeNext("/flows/abc?tab=runs")).toBe("/flows/abc?tab=runs");
    expect(safeNext("/runs?status=failed#top")).toBe("/runs?status=failed#top");
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

  it("never leaves the site for tabs, newlines, backslashes or slashes the URL parser folds away", () => {
    // What `searchParams.get("next")` yields for /signin?next=/%09/evil.example and its cousins.
    for (const bad of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "\t//evil.example",
      "/ /evil.example",
      "/\\\\evil.example",
      "\\/evil.example",
      "/\t\\evil.example",
      "///evil.example",
      "/.//evil.example",
      "/%2F%2Fevil.example",
      "/%5Cevil.example",
    ]) {
      expect(landsOn(bad).origin, JSON.stringify(bad)).toBe("http://localhost:3000");
      expect(safeNext(bad).startsWith("//"), JSON.stringify(bad)).toBe(false);
    }
    expect(safeNext("/\t/evil.example")).toBe("/");
  });
});
