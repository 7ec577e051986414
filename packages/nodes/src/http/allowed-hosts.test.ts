import { isIpLiteral as patternIsIp } from "@switchyard/contracts/credentials";
import { describe, expect, it } from "vitest";
import { assertCredentialHost } from "./allowed-hosts";
import { isIpLiteral } from "./ssrf";

describe("credential allowed hosts", () => {
  it("reads IP literals in host patterns as the SSRF guard (ipaddr.js) does, zone ids aside", () => {
    const corpus = [
      "10.0.0.1",
      "0.0.0.0",
      "256.1.1.1",
      "1.2.3",
      "010.1.1.1",
      "::",
      "::1",
      "[::1]",
      "1::",
      "::ffff:10.0.0.1",
    ];
    corpus.push(
      "2001:db8:0:0:0:0:2:1",
      "2001:db8::2:1::",
      "12345::",
      "fe80::1",
      "example.com",
      "a:b",
      "1:2:3:4:5:6:7:8:9",
    );
    for (const host of corpus) expect([host, patternIsIp(host)]).toEqual([host, isIpLiteral(host)]);
    // ipaddr.js accepts a zone id; no URL host carries one, so a pattern with it could never match.
    expect([isIpLiteral("fe80::1%eth0"), patternIsIp("fe80::1%eth0")]).toEqual([true, false]);
  });

  it("refuses to send a credential with no allowed hosts, saying how to fix it", () => {
    expect(() => assertCredentialHost("c1", { token: "t" }, "api.example.com", "n")).toThrow(
      'credential "c1" has no allowed hosts, so it is sent nowhere: edit the credential (Settings › Credentials) and add the hosts it may be sent to',
    );
    expect(() =>
      assertCredentialHost("c1", { allowedHosts: "*.example.com" }, "API.Example.com.", "n"),
    ).not.toThrow();
    expect(() => assertCredentialHost("c1", { allowedHosts: "api.example.com" }, "Evil.test.", "n")).toThrow(
      'credential "c1" may not be sent to evil.test: its allowed hosts are api.example.com',
    );
  });
});
