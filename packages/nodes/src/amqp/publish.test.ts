import { randomUUID } from "node:crypto";
import type { SecretsReader } from "@switchyard/engine";
import amqp, { type Channel, type ChannelModel } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeNode } from "../__tests__/execute-node";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { freePort } from "../__tests__/private-brokers";
import { createHttpClient, type GuardedHttpClient } from "../http/client";
import { createSharedConnections } from "../util/connections";
import { amqpPublishNode } from "./publish";

// The machine's shared RabbitMQ; every test declares its own queue (auto-deleted with the connection).
const cred = (over: Record<string, string> = {}) => ({
  host: "127.0.0.1",
  port: "5672",
  vhost: "/",
  user: "guest",
  password: "guest",
  allowedHosts: "127.0.0.1",
  ...over,
});
const secrets = (data: Record<string, string>): SecretsReader => ({
  get: async () => ({ type: "amqp", data }),
});
const guard = createHttpClient({ allowHosts: ["127.0.0.1"] });

const connections = createSharedConnections();
const publish = (config: Record<string, unknown>, data = cred(), http: GuardedHttpClient = guard) =>
  executeNode(amqpPublishNode, {
    config: { credentialId: "c-amqp", ...config } as never,
    input: items({}),
    ctx: fakeCtx({ nodeId: "pub", secrets: secrets(data), http, connections }),
  });

let conn: ChannelModel;
let ch: Channel;
beforeAll(async () => {
  conn = await amqp.connect("amqp://guest:guest@127.0.0.1:5672");
  ch = await conn.createChannel();
});
afterAll(async () => {
  await connections.closeAll();
  await conn.close();
});

/** The next message waiting in the queue; fails the test when there is none. */
const getOne = async (queue: string) => {
  const got = await ch.get(queue, { noAck: true });
  if (!got) throw new Error(`no message waiting in ${queue}`);
  return got;
};

const tempQueue = async () => {
  const q = `sy-test-${randomUUID()}`;
  await ch.assertQueue(q, { durable: false, autoDelete: false, exclusive: false, expires: 60_000 });
  return q;
};

describe("amqp.publish against the machine's RabbitMQ", () => {
  it("sends to a queue once the broker confirmed it: persistent, JSON, with headers and a message id", async () => {
    const queue = await tempQueue();
    const out = await publish({ queue, message: { orderId: 42 }, headers: { source: "test" } });
    const json = (out as { items: { json: Record<string, unknown> }[] }).items[0]!.json;
    expect(json).toEqual({
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      exchange: "",
      routingKey: queue,
      persistent: true,
      confirmed: true,
    });
    const got = await getOne(queue);
    expect(JSON.parse(got.content.toString())).toEqual({ orderId: 42 });
    expect(got.properties).toMatchObject({
      messageId: json.messageId,
      deliveryMode: 2,
      contentType: "application/json",
      headers: { source: "test" },
    });
  });

  it("publishes through an exchange with a routing key, keeping a given message id and a string as it is", async () => {
    const queue = await tempQueue();
    const exchange = `sy-test-x-${randomUUID()}`;
    await ch.assertExchange(exchange, "direct", { durable: false, autoDelete: true });
    await ch.bindQueue(queue, exchange, "orders.new");
    await publish({
      mode: "exchange",
      exchange,
      routingKey: "orders.new",
      message: "hello",
      messageId: "order-42",
      persistent: false,
    });
    const got = await getOne(queue);
    expect(got.content.toString()).toBe("hello");
    expect(got.properties).toMatchObject({ messageId: "order-42", contentType: "text/plain" });
    expect(got.properties.deliveryMode).not.toBe(2);
    await ch.deleteExchange(exchange);
  });

  it("fails when no queue takes the message instead of dropping it silently, and the connection stays usable", async () => {
    const queue = `sy-test-missing-${randomUUID()}`;
    await expect(publish({ queue, message: 1 })).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "pub",
      retryable: false,
      message: `AMQP publish to queue "${queue}" on 127.0.0.1:5672 was returned: no such queue`,
    });
    const ok = await tempQueue();
    await expect(publish({ queue: ok, message: 2 })).resolves.toBeDefined();
    expect(connections.keys()).toHaveLength(1);
  });

  it("creates a missing queue (durable) when told to declare it, and names the queue when it exists with other settings", async () => {
    const queue = `sy-test-declared-${randomUUID()}`;
    try {
      await publish({ queue, declareQueue: true, message: { n: 1 } });
      expect(JSON.parse((await getOne(queue)).content.toString())).toEqual({ n: 1 });
      expect((await ch.checkQueue(queue)).messageCount).toBe(0);
    } finally {
      await ch.deleteQueue(queue);
    }
    // tempQueue() is not durable: declaring it durable is refused by the broker, and the node says so.
    const other = await tempQueue();
    await expect(publish({ queue: other, declareQueue: true, message: 2 })).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "pub",
      retryable: false,
      message: expect.stringContaining(
        `AMQP publish to queue "${other}" on 127.0.0.1:5672 failed: the queue could not be declared (`,
      ),
    });
    await expect(publish({ queue: other, message: 3 })).resolves.toBeDefined();
  });

  it("gives the broker's message when the exchange does not exist, then opens a fresh channel", async () => {
    const exchange = `sy-test-nope-${randomUUID()}`;
    await expect(publish({ mode: "exchange", exchange, routingKey: "k", message: 1 })).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "pub",
      message: `AMQP publish to exchange "${exchange}" (routing key "k") on 127.0.0.1:5672 failed: NOT_FOUND - no exchange '${exchange}' in vhost '/'`,
    });
    const queue = await tempQueue();
    await expect(publish({ queue, message: 3 })).resolves.toBeDefined();
    const got = await getOne(queue);
    expect(got.content.toString()).toBe("3");
  });
});

describe("amqp.publish errors", () => {
  it("names the broker and gives its reason when the password is wrong", async () => {
    await expect(publish({ queue: "q", message: 1 }, cred({ password: "wrong" }))).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "pub",
      retryable: false,
      message:
        "AMQP broker 127.0.0.1:5672 refused the connection: ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.",
    });
  });

  it("names the broker and the socket error when nothing listens", async () => {
    const port = await freePort();
    await expect(publish({ queue: "q", message: 1 }, cred({ port: String(port) }))).rejects.toMatchObject({
      code: "service_failed",
      nodeId: "pub",
      message: `AMQP broker 127.0.0.1:${port} is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it("refuses a host the credential is not bound to, before connecting", async () => {
    await expect(
      publish({ queue: "q", message: 1 }, cred({ allowedHosts: "rabbit.example.com" })),
    ).rejects.toMatchObject({
      code: "policy_denied",
      message: 'credential "c-amqp" may not be sent to 127.0.0.1: its allowed hosts are rabbit.example.com',
    });
  });

  it("refuses a loopback broker the outbound guard does not allow", async () => {
    await expect(
      publish({ queue: "q", message: 1 }, cred(), createHttpClient({ allowHosts: [] })),
    ).rejects.toMatchObject({
      code: "policy_denied",
      message: "request to amqp://127.0.0.1:5672 refused: 127.0.0.1 is a loopback address",
    });
  });

  it("wants a queue in queue mode and an exchange in exchange mode, naming the node and field", async () => {
    await expect(publish({ message: 1 })).rejects.toThrow('node "pub" field "queue": name the queue');
    await expect(publish({ mode: "exchange", message: 1 })).rejects.toThrow(
      'node "pub" field "exchange": name the exchange',
    );
  });
});
