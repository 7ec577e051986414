import { describe, expect, it } from "vitest";
import { hostAllowed, hostPatternProblem, parseAllowedHosts } from "./allowed-hosts";

describe("credential allowed hosts", () => {
  it("splits the stored field on commas, spaces and new lines, lower-cased", () => {
    expect(parseAllowedHosts(" API.example.com,*.Example.org\n10.0.0.1  [::1] ")).toEqual([
      "api.example.com",
      "*.example.org",
      "10.0.0.1",
      "::1",
    ]);
    expect(parseAllowedHosts(undefined)).toEqual([]);
  });

  it("matches a host exactly, and a wildcard only on subdomains, never on look-alikes", () => {
    const list = ["api.example.com", "*.example.org"];
    expect(hostAllowed("API.example.com.", list)).toBe(true);
    expect(hostAllowed("a.b.example.org", list)).toBe(true);
    expect(hostAllowed("example.org", list)).toBe(false);
    expect(hostAllowed("evil-example.org", list)).toBe(false);
    expect(hostAllowed("api.example.com.evil.test", list)).toBe(false);
    expect(hostAllowed("[::1]", ["::1"])).toBe(true);
  });

  it("names what is wrong with an unusable pattern", () => {
    expect(hostPatternProblem("https://api.example.com")).toBe(
      '"https://api.example.com" is not a host name (no scheme, path or user)',
    );
    expect(hostPatternProblem("api.example.com:443")).toBe(
      '"api.example.com:443" has a port; give the host only',
    );
    expect(hostPatternProblem("*")).toBe('"*" may use * only as its first label, as in *.example.com');
    expect(hostPatternProblem("*.com")).toBe('"*.com" is too broad; name a domain, as in *.example.com');
    expect(hostPatternProblem("a.*.example.com")).toBe(
      '"a.*.example.com" may use * only as its first label, as in *.example.com',
    );
    expect(hostPatternProblem("*.example.com")).toBeNull();
    expect(hostPatternProblem("127.0.0.1")).toBeNull();
  });
});
