import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { hostnameOf, isAllowedHost, isLocalClient, isSameOrigin, looksLocal } from "./hosts";

const config = parseConfig({
  SWITCHYARD_BASE_URL: "https://sy.example.com",
  SWITCHYARD_ALLOWED_HOSTS: "sy.lan, Intra.Example:8443",
});

describe("allowed hosts", () => {
  it("answers the base URL's host, SWITCHYARD_ALLOWED_HOSTS, loopback names and IP addresses, on any port", () => {
    for (const host of [
      "sy.example.com",
      "SY.example.com.:443",
      "sy.lan:3000",
      "intra.example",
      "localhost:3000",
      "app.localhost",
      "127.0.0.1:3000",
      "[::1]:3000",
      "192.168.1.20:3000",
      "[fe80::1]",
    ]) {
      expect(isAllowedHost(host, config), host).toBe(true);
    }
  });

  it("refuses a rebinding name, a missing Host and anything that is not a host", () => {
    for (const host of [
      "evil.example:3000",
      "sy.example.com.evil.example",
      "localhost.evil.example",
      undefined,
      "",
      "evil@localhost",
      "localhost/x",
      "localhost:3000:1",
    ]) {
      expect(isAllowedHost(host, config), String(host)).toBe(false);
    }
  });

  it("reads hosts case-insensitively without the port or a trailing dot", () => {
    expect(hostnameOf("Example.COM.:80")).toBe("example.com");
    expect(hostnameOf("[::1]:3000")).toBe("[::1]");
  });

  it("refuses a bad SWITCHYARD_ALLOWED_HOSTS entry naming the variable", () => {
    expect(() => parseConfig({ SWITCHYARD_ALLOWED_HOSTS: "ok.example, https://x.example" })).toThrow(
      'invalid environment variable SWITCHYARD_ALLOWED_HOSTS="ok.example, https://x.example": expected host names separated by commas, e.g. switchyard.example.com,sy.lan',
    );
  });
});

describe("same-origin writes", () => {
  it("refuses a DNS-rebinding page although its Origin matches its Host and the browser calls it same-origin", () => {
    const rebinding = {
      host: "evil.example:3000",
      origin: "http://evil.example:3000",
      "sec-fetch-site": "same-origin",
    };
    expect(isSameOrigin(rebinding, config)).toBe(false);
    expect(isSameOrigin({ host: "localhost:3000", origin: "http://localhost:3000" }, config)).toBe(true);
    expect(isSameOrigin({ host: "sy.example.com", origin: "https://sy.example.com" }, config)).toBe(true);
  });

  it("takes the browser's host from X-Forwarded-Host only behind a trusted proxy", () => {
    const viaProxy = {
      host: "127.0.0.1:3000",
      "x-forwarded-host": "evil.example",
      origin: "http://evil.example",
    };
    expect(isSameOrigin(viaProxy, { ...config, trustProxy: true })).toBe(false);
    expect(
      isSameOrigin(
        { ...viaProxy, "x-forwarded-host": "sy.example.com", origin: "https://sy.example.com" },
        { ...config, trustProxy: true },
      ),
    ).toBe(true);
  });
});

describe("local client", () => {
  it("is a loopback client address that addressed a loopback name", () => {
    const origin = "http://localhost:3000";
    expect(isLocalClient({ host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1", origin }, config)).toBe(
      true,
    );
    expect(isLocalClient({ host: "localhost:3000", "x-forwarded-for": "::1", origin }, config)).toBe(true);
    expect(
      isLocalClient(
        { host: "localhost:3000", "x-forwarded-for": "::ffff:127.0.0.1", origin: "http://[::1]:3000" },
        config,
      ),
    ).toBe(true);
  });

  it("is not a remote address, nor a local socket that addressed another name (a proxy, a rebinding page)", () => {
    expect(isLocalClient({ host: "localhost:3000", "x-forwarded-for": "192.168.1.9" }, config)).toBe(false);
    expect(isLocalClient({ host: "sy.example.com", "x-forwarded-for": "127.0.0.1" }, config)).toBe(false);
    expect(isLocalClient({ host: "evil.example:3000", "x-forwarded-for": "127.0.0.1" }, config)).toBe(false);
    // Behind a trusted proxy the forwarded client counts (the right-most entry, written by our proxy).
    const proxied = {
      host: "localhost:3000",
      "x-forwarded-host": "sy.example.com",
      "x-forwarded-for": "127.0.0.1, 203.0.113.5",
    };
    expect(isLocalClient(proxied, { ...config, trustProxy: true })).toBe(false);
  });

  it("lets a page navigation (no Origin) look local by address and host alone, without granting it anything", () => {
    const navigation = { host: "localhost:3000", "x-forwarded-for": "127.0.0.1" };
    expect(looksLocal(navigation, config)).toBe(true);
    expect(isLocalClient(navigation, config)).toBe(false);
    expect(looksLocal({ host: "sy.example.com", "x-forwarded-for": "127.0.0.1" }, config)).toBe(false);
  });

  it("is not a browser behind a proxy that rewrote Host to the loopback upstream (nginx's default), nor a request without Origin", () => {
    const viaNginx = {
      host: "127.0.0.1:3000",
      "x-forwarded-for": "127.0.0.1",
      origin: "https://sy.example.com",
    };
    expect(isLocalClient(viaNginx, config)).toBe(false);
    expect(isLocalClient({ host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1" }, config)).toBe(false);
    expect(
      isLocalClient({ host: "127.0.0.1:3000", "x-forwarded-for": "127.0.0.1", origin: "null" }, config),
    ).toBe(false);
  });
});
