import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../__tests__/http-server";
import { NodeError } from "../errors";
import { createHttpClient } from "./client";
import { forbiddenReason, isForbiddenAddress } from "./ssrf";
import { type ResolvedAddress, vetUrl } from "./vet";

/** Fake DNS: names map to fixed answers; nothing leaves the machine. */
const DNS: Record<string, string[]> = {
  "localhost.example": ["127.0.0.1"],
  "rebind.example": ["93.184.216.34", "10.0.0.5"],
  "metadata.example": ["169.254.169.254"],
  "v6private.example": ["fd12:3456::1"],
  "mapped.example": ["::ffff:192.168.1.1"],
  "api.example.com": ["93.184.216.34"],
  "v6.example.com": ["2606:4700:4700::1111"],
  "cdn.example.net": ["151.101.1.69", "2a04:4e42::645"],
};
const lookup = async (host: string): Promise<ResolvedAddress[]> => {
  const answers = DNS[host];
  if (!answers) throw new Error(`ENOTFOUND ${host}`);
  return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const REFUSED = [
  "http://127.0.0.1/",
  "http://127.255.255.254:8080/x",
  "http://localhost/",
  "http://app.localhost/",
  "http://0.0.0.0/",
  "http://0.1.2.3/",
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://172.31.255.255/",
  "http://192.168.0.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://168.63.129.16/",
  "http://100.64.0.1/",
  "http://100.100.100.200/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  "http://240.0.0.1/",
  "http://198.18.0.1/",
  "http://192.0.0.192/",
  "http://[::1]/",
  "http://[::]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[::127.0.0.1]/",
  "http://[::ffff:0:a00:1]/",
  "http://[64:ff9b::a00:1]/",
  "http://[64:ff9b::169.254.169.254]/",
  "http://[2002:c0a8:101::1]/",
  "http://[2002:7f00:1::1]/",
  "http://[fc00::1]/",
  "http://[fd00:ec2::254]/",
  "http://[fe80::1]/",
  "http://[ff02::1]/",
  "http://[2001:0::1]/",
  "http://0x7f.1/",
  "http://2130706433/",
  "http://017700000001/",
  "http://127.1/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://localhost.example/",
  "http://rebind.example/",
  "http://metadata.example/",
  "http://v6private.example/",
  "http://mapped.example/",
  "ftp://api.example.com/",
  "file:///etc/passwd",
  "http://user:pw@api.example.com/",
];

const ALLOWED: [string, string][] = [
  ["https://api.example.com/v1", "93.184.216.34"],
  ["http://v6.example.com/", "2606:4700:4700::1111"],
  ["https://cdn.example.net/a.js", "151.101.1.69"],
  ["http://8.8.8.8/", "8.8.8.8"],
  ["http://[2606:4700::1111]/", "2606:4700::1111"],
  ["http://[64:ff9b::808:808]/", "64:ff9b::808:808"],
];

describe("SSRF guard", () => {
  const client = createHttpClient({ lookup });

  it.each(REFUSED)("refuses %s before connecting", async (url) => {
    const err = await client.request({ method: "GET", url }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeError);
    expect((err as NodeError).code).toBe("policy_denied");
    expect((err as NodeError).retryable).toBe(false);
  });

  it("has at least 25 refused cases", () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(25);
  });

  it.each(ALLOWED)("lets %s through, pinned to %s", async (url, address) => {
    await expect(vetUrl(new URL(url), { lookup })).resolves.toMatchObject({ address });
  });

  it("explains why an address is refused", () => {
    expect(forbiddenReason("::ffff:127.0.0.1")).toBe("an IPv6 form of a loopback address (127.0.0.1)");
    expect(forbiddenReason("10.1.2.3")).toBe("a private address");
    expect(forbiddenReason("not-an-ip")).toBe("not an IP address");
    expect(isForbiddenAddress("93.184.216.34")).toBe(false);
  });

  it("names the host and address in the refusal message", async () => {
    const err = (await client
      .request({ method: "GET", url: "http://rebind.example/" })
      .catch((e) => e)) as NodeError;
    expect(err.message).toBe(
      "request to http://rebind.example refused: rebind.example resolves to 10.0.0.5, a private address",
    );
  });
});

describe("SSRF guard with a real local server", () => {
  let target: TestServer;
  let bouncer: TestServer;

  beforeAll(async () => {
    target = await startServer((_req, res) => res.end("secret"));
    bouncer = await startServer((req, res) => {
      const to = req.url === "/to-name" ? `http://localhost.example:${target.port}/` : `${target.url}/`;
      res.writeHead(302, { location: to }).end();
    });
  });
  afterAll(async () => {
    await target.close();
    await bouncer.close();
  });

  it("refuses a redirect to loopback even when the first hop was allowed", async () => {
    // The bouncer and target both listen on 127.0.0.1; only the first hop's host name is allowed.
    const client = createHttpClient({
      allowHosts: ["first-hop.example"],
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const err = (await client
      .request({ method: "GET", url: `http://first-hop.example:${bouncer.port}/` })
      .catch((e) => e)) as NodeError;
    expect(err.code).toBe("policy_denied");
    expect(err.message).toBe(
      `request to http://127.0.0.1:${target.port} refused: 127.0.0.1 is a loopback address`,
    );
    expect(bouncer.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it("refuses a redirect to a name that resolves to loopback", async () => {
    const client = createHttpClient({
      allowHosts: ["first-hop.example"],
      lookup: async (h) => (h === "first-hop.example" ? [{ address: "127.0.0.1", family: 4 }] : lookup(h)),
    });
    const err = (await client
      .request({ method: "GET", url: `http://first-hop.example:${bouncer.port}/to-name` })
      .catch((e) => e)) as NodeError;
    expect(err.code).toBe("policy_denied");
    expect(target.requests).toHaveLength(0);
  });

  it("connects to the address it checked, not to a fresh DNS answer", async () => {
    // "pinned.invalid" does not exist in real DNS: reaching the server proves the pinned IP was used.
    const client = createHttpClient({
      allowHosts: ["pinned.invalid"],
      lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const res = await client.request({ method: "GET", url: `http://pinned.invalid:${target.port}/` });
    expect(res.status).toBe(200);
    expect(Buffer.from(res.body).toString()).toBe("secret");
    expect(target.requests.at(-1)?.headers.host).toBe(`pinned.invalid:${target.port}`);
  });
});
