import { describe, expect, it } from "vitest";
import { parseConfig } from "./config";

describe("parseConfig", () => {
  it("uses safe defaults when nothing is set", () => {
    const c = parseConfig({}, "/srv");
    expect(c).toMatchObject({
      dataDir: "/srv/data",
      port: 3000,
      host: "127.0.0.1",
      baseUrl: "http://127.0.0.1:3000",
    });
    expect(c.smtp).toEqual({ port: 2525, host: "127.0.0.1", domain: "localhost" });
  });

  it("names the variable and the value when PORT is not a number", () => {
    expect(() => parseConfig({ PORT: "abc" })).toThrow(
      'invalid environment variable PORT="abc": expected a port number (0-65535, 0 = any free port)',
    );
  });

  it("refuses a port out of range and an unknown log level", () => {
    expect(() => parseConfig({ SWITCHYARD_SMTP_PORT: "70000" })).toThrow(
      /^invalid environment variable SWITCHYARD_SMTP_PORT="70000"/,
    );
    expect(() => parseConfig({ LOG_LEVEL: "loud" })).toThrow(
      /^invalid environment variable LOG_LEVEL="loud"/,
    );
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ PORT: "" }).port).toBe(3000);
  });

  it("resolves the data dir against the working directory", () => {
    expect(parseConfig({ SWITCHYARD_DATA_DIR: "x/y", PORT: "8080" }, "/a").dbFile).toBe(
      "/a/x/y/switchyard.db",
    );
  });
});

describe("trust proxy", () => {
  it("is off unless asked for, and refuses a value that is not a boolean", () => {
    expect(parseConfig({}).trustProxy).toBe(false);
    expect(parseConfig({ SWITCHYARD_TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(() => parseConfig({ SWITCHYARD_TRUST_PROXY: "yes" })).toThrow(
      'invalid environment variable SWITCHYARD_TRUST_PROXY="yes": expected true or false',
    );
  });
});
