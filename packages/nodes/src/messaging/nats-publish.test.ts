import { connect } from "@nats-io/transport-node";
import { afterAll, describe, expect, it } from "vitest";
import { executeNode } from "../__tests__/execute-node";
import { items } from "../__tests__/fake-ctx";
import { serviceCtx, unique } from "../__tests__/service-ctx";
import { natsPublishNode } from "./nats-publish";

// Against the machine's NATS (127.0.0.1:4222): subjects under a prefix of this run.
const prefix = unique("sy_nats");
const base = { host: "127.0.0.1", port: "4222", allowedHosts: "127.0.0.1" };
const { ctx, pools, close } = serviceCtx({
  nats: { type: "nats", data: base },
  "nats-down": { type: "nats", data: { ...base, port: "1" } },
  "nats-elsewhere": { type: "nats", data: { ...base, allowedHosts: "nats.example.com" } },
});
afterAll(close);

const run = (config: Record<string, unknown>, input = items({})) =>
  executeNode(natsPublishNode, { config: { credentialId: "nats", ...config }, input, ctx });

describe("nats.publish", () => {
  it("publishes objects as JSON and strings as they are, to a subscriber on the subject", async () => {
    const sub = await connect({ servers: "127.0.0.1:4222" });
    const subject = `${prefix}.orders`;
    const s = sub.subscribe(subject, { max: 2 });
    await sub.flush();
    const got: string[] = [];
    const done = (async () => {
      for await (const m of s) got.push(m.string());
    })();
    expect(await run({ subject, message: { id: 7, total: 9.5 } })).toEqual({
      items: [{ json: { subject, bytes: 20 } }],
    });
    await run({ subject, message: "plain text" });
    await done;
    expect(got).toEqual(['{"id":7,"total":9.5}', "plain text"]);
    expect(pools.keys().filter((k) => k.startsWith("nats:nats:"))).toHaveLength(1);
    await sub.close();
  });

  it("refuses a wildcard or empty-token subject, naming the field", async () => {
    await expect(run({ subject: `${prefix}.*`, message: "x" })).rejects.toMatchObject({
      code: "config_invalid",
      message: `node "n1" field "subject": a subject is dot-separated tokens without spaces or wildcards (* and > are for subscribers)`,
    });
    await expect(run({ subject: "a..b", message: "x" })).rejects.toMatchObject({ code: "config_invalid" });
  });

  it("reports an unreachable server and refuses a host outside the credential's allowed hosts", async () => {
    await expect(
      run({ credentialId: "nats-down", subject: `${prefix}.x`, message: "x" }),
    ).rejects.toMatchObject({
      code: "service_failed",
      retryable: true,
      message: `node "n1": NATS: connection refused: connect ECONNREFUSED 127.0.0.1:1`,
    });
    await expect(
      run({ credentialId: "nats-elsewhere", subject: `${prefix}.x`, message: "x" }),
    ).rejects.toMatchObject({
      code: "policy_denied",
      message: `credential "nats-elsewhere" may not be sent to 127.0.0.1: its allowed hosts are nats.example.com`,
    });
  });
});
