import { describe, expect, it } from "vitest";
import {
  credentialTypes,
  hostAllowed,
  hostPatternProblem,
  isIpLiteral,
  parseAllowedHosts,
} from "./credentials";

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

  it("takes IPv4 in four decimal parts and IPv6 (bracketed or not) as IP literals, nothing else", () => {
    for (const ip of [
      "10.0.0.1",
      "255.255.255.255",
      "::1",
      "[::1]",
      "2001:db8::8a2e:370:7334",
      "::ffff:1.2.3.4",
    ])
      expect([ip, isIpLiteral(ip)]).toEqual([ip, true]);
    for (const not of [
      "256.0.0.1",
      "01.2.3.4",
      "1.2.3",
      "example.com",
      "fe80::1%eth0",
      ":::1",
      "1:2",
      "g::1",
    ])
      expect([not, isIpLiteral(not)]).toEqual([not, false]);
    expect(hostPatternProblem("2001:db8::1")).toBeNull();
  });
});

describe("credential types", () => {
  it("refuses an outbound credential without allowed hosts, and an SMTP host outside them, naming the field", () => {
    const issues = (type: keyof typeof credentialTypes, data: unknown) =>
      credentialTypes[type].safeParse(data).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues("httpBearer", { token: "t", allowedHosts: " , " })).toEqual([
      [
        "allowedHosts",
        "list the hosts this credential may be sent to, e.g. api.example.com or *.example.com",
      ],
    ]);
    const smtp = {
      host: "smtp.example.com",
      port: "587",
      from: "me@example.com",
      allowedHosts: "mail.example.com",
    };
    expect(issues("smtp", smtp)).toEqual([
      ["allowedHosts", "the SMTP host smtp.example.com is not among the allowed hosts"],
    ]);
    expect(issues("smtp", { ...smtp, port: "70000", allowedHosts: "smtp.example.com" })).toEqual([
      ["port", "use a port from 1 to 65535"],
    ]);
    expect(
      issues("smtp", { ...smtp, port: "25x", allowedHosts: "smtp.example.com" })?.map(([p]) => p),
    ).toEqual(["port"]);
    expect(credentialTypes.smtp.parse({ ...smtp, allowedHosts: "*.example.com" })).toEqual({
      ...smtp,
      allowedHosts: "*.example.com",
      secure: "false",
      user: "",
      pass: "",
    });
  });

  it("binds database, broker and mailbox credentials to their host, with defaults for optional fields", () => {
    const issues = (type: keyof typeof credentialTypes, data: unknown) =>
      credentialTypes[type].safeParse(data).error?.issues.map((i) => [i.path.join("."), i.message]);
    const pg = {
      host: "db.example.com",
      port: "5432",
      database: "app",
      user: "app",
      allowedHosts: "x.example.com",
    };
    expect(issues("postgres", pg)).toEqual([
      ["allowedHosts", "the PostgreSQL host db.example.com is not among the allowed hosts"],
    ]);
    expect(issues("mysql", { ...pg, database: "" })).toEqual([
      ["database", "Too small: expected string to have >=1 characters"],
      ["allowedHosts", "the MySQL host db.example.com is not among the allowed hosts"],
    ]);
    expect(credentialTypes.postgres.parse({ ...pg, allowedHosts: "*.example.com" })).toEqual({
      ...pg,
      allowedHosts: "*.example.com",
      password: "",
      ssl: "false",
    });
    expect(credentialTypes.redis.parse({ host: "127.0.0.1", allowedHosts: "127.0.0.1" })).toEqual({
      host: "127.0.0.1",
      port: "6379",
      user: "",
      password: "",
      db: "0",
      allowedHosts: "127.0.0.1",
    });
    expect(issues("redis", { host: "r.example.com", db: "x", allowedHosts: "r.example.com" })).toEqual([
      ["db", "a database number, 0 or more"],
    ]);
    expect(issues("nats", { host: "nats.example.com", allowedHosts: "" })?.[0]).toEqual([
      "allowedHosts",
      "list the hosts this credential may be sent to, e.g. api.example.com or *.example.com",
    ]);
    expect(
      issues("imap", {
        host: "imap.example.com",
        user: "me",
        password: "pw",
        allowedHosts: "mail.example.com",
      }),
    ).toEqual([["allowedHosts", "the IMAP host imap.example.com is not among the allowed hosts"]]);
  });

  it("binds MQTT and AMQP brokers to their allowed hosts, with the brokers' default ports", () => {
    const issues = (type: keyof typeof credentialTypes, data: unknown) =>
      credentialTypes[type].safeParse(data).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues("mqtt", { host: "mqtt.example.com", allowedHosts: "broker.example.com" })).toEqual([
      ["allowedHosts", "the MQTT host mqtt.example.com is not among the allowed hosts"],
    ]);
    expect(credentialTypes.mqtt.parse({ host: "mqtt.example.com", allowedHosts: "*.example.com" })).toEqual({
      host: "mqtt.example.com",
      port: "1883",
      secure: "false",
      user: "",
      password: "",
      clientIdPrefix: "switchyard",
      allowedHosts: "*.example.com",
    });
    expect(
      issues("mqtt", { host: "m.example.com", clientIdPrefix: "has space", allowedHosts: "m.example.com" }),
    ).toEqual([["clientIdPrefix", "use up to 32 letters, digits, - or _"]]);
    const amqp = {
      host: "rabbit.example.com",
      user: "app",
      password: "pw",
      allowedHosts: "rabbit.example.com",
    };
    expect(credentialTypes.amqp.parse(amqp)).toEqual({ ...amqp, port: "5672", secure: "false", vhost: "/" });
    expect(issues("amqp", { ...amqp, host: "other.example.com", port: "0" })).toEqual([
      ["port", "use a port from 1 to 65535"],
      ["allowedHosts", "the AMQP host other.example.com is not among the allowed hosts"],
    ]);
  });
});
