/**
 * The n8n corpus files that use the integration nodes of #24 (postgres.query, mysql.query,
 * redis.command, mqtt.publish, amqp.publish), imported and run against the machine's real services.
 * Those node types and credential types are built in parallel on other branches: on the n8n-import
 * branch alone these tests fail with "unknown node type"; they pass once the branches are merged.
 * trigger.imap's file runs against a private Dovecot (the IMAP trigger's own harness).
 */
import { execFileSync, spawn } from "node:child_process";
import { Redis } from "ioredis";
import { type CorpusEntry, loadCorpus } from "@switchyard/import-n8n/corpus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailbox, message } from "../triggers/imap/imap-test-kit";
import { startDovecot } from "./dovecot";
import {
  fillCorpus,
  firstRunOf,
  importCorpusFlow,
  runAndCheck,
  stepOutputs,
  type TestHost,
} from "./n8n-corpus-support";
import { startTestHost, waitForRun } from "./test-host";

const corpus = new Map(loadCorpus().map((e) => [e.name, e]));
const unique = `n8n_${process.pid}_${Date.now().toString(36)}`;

let t: TestHost;
beforeAll(async () => {
  t = await startTestHost();
  await t.host.settings.set("http.allowHosts", ["127.0.0.1"]);
  await t.host.services.reloadHttp();
});
afterAll(async () => {
  await t.close();
});

/** Credential data for the machine's services, by the agreed credential type (all fields are strings). */
const SERVICES: Record<string, Record<string, string>> = {
  postgres: {
    host: "127.0.0.1",
    port: "5432",
    database: "test",
    user: "postgres",
    password: "",
    ssl: "false",
  },
  mysql: { host: "127.0.0.1", port: "3306", database: "test", user: "root", password: "", ssl: "false" },
  redis: { host: "127.0.0.1", port: "6379" },
  mqtt: { host: "127.0.0.1", port: "1883" },
  amqp: { host: "127.0.0.1", port: "5672", vhost: "/", user: "guest", password: "guest" },
};

async function run(entry: CorpusEntry) {
  const credentials: Record<string, string> = {};
  for (const [name, type] of Object.entries(entry.expected.credentials ?? {})) {
    const cred = await t.host.services.vault.create({
      name: `${name} ${unique}`,
      type: type as never,
      data: { ...SERVICES[type], allowedHosts: "127.0.0.1" },
    });
    credentials[name] = cred.id;
  }
  const text = fillCorpus(entry.text, {
    http: "",
    hook: `n8n/${entry.name}`,
    unique: `${unique}_${entry.name}`,
  });
  const imported = await importCorpusFlow(t, entry, text, { credentials });
  expect(imported.report.problems).toEqual([]);
  const payload = JSON.parse(
    JSON.stringify(entry.expected.start?.manual ?? {}).replaceAll("__UNIQUE__", `${unique}_${entry.name}`),
  );
  return runAndCheck(
    t,
    imported.id,
    { ...entry, expected: { ...entry.expected, start: { manual: payload } } },
    "",
  );
}

describe("the n8n corpus's integration files, run against the real services", () => {
  it("postgres: a query with n8n's $1 replacements returns its rows as items", async () => {
    await run(corpus.get("postgres")!);
  });

  it("mysql: $n replacements become ? parameters in the right order", async () => {
    await run(corpus.get("mysql")!);
  });

  it("redis: set with a TTL, then get, through the real server", async () => {
    const entry = corpus.get("redis")!;
    await run(entry);
    const redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
    await redis.connect();
    try {
      const key = `${unique}_redis`;
      expect(await redis.get(key)).toBe((entry.expected.redis as { value: string }).value);
      const ttl = await redis.ttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60);
      await redis.del(key);
    } finally {
      redis.disconnect();
    }
  });

  it("mqtt: the message reaches a subscriber of the topic", async () => {
    const entry = corpus.get("mqtt")!;
    const topic = `${unique}_mqtt`;
    // Line-buffered: piped, mosquitto_sub would hold its SUBACK line back until it exits.
    const sub = spawn("stdbuf", [
      "-oL",
      "mosquitto_sub",
      "-h",
      "127.0.0.1",
      "-p",
      "1883",
      "-t",
      topic,
      "-q",
      "1",
      "-C",
      "1",
      "-d",
    ]);
    let out = "";
    const subscribed = new Promise<void>((resolve) =>
      sub.stdout.on("data", (c) => {
        out += c;
        if (out.includes("SUBACK")) resolve();
      }),
    );
    const received = new Promise<string>((resolve) => sub.on("exit", () => resolve(out)));
    try {
      await subscribed;
      await run(entry);
      const lines = (await received).split("\n").filter((l) => l && !/^(Client |Subscribed )/.test(l));
      expect(lines).toEqual([(entry.expected.mqtt as { message: string }).message]);
    } finally {
      sub.kill();
    }
  }, 20_000);

  it("rabbitmq: the item is published to the queue", async () => {
    await run(corpus.get("rabbitmq")!);
    const queue = `${unique}_rabbitmq`;
    const listing = execFileSync("rabbitmqctl", ["list_queues", "name", "messages", "--quiet"], {
      encoding: "utf8",
    });
    expect(listing.split("\n").find((l) => l.startsWith(`${queue}\t`))).toBe(`${queue}\t1`);
    execFileSync("rabbitmqctl", ["delete_queue", queue, "--quiet"]);
  });

  it("imap: an unread message in the mailbox starts a run whose Set node picks its subject and sender, and is marked read", async () => {
    const dovecot = await startDovecot({ n8n: "n8n-pw" });
    try {
      const entry = corpus.get("email-trigger-imap")!;
      const cred = await t.host.services.vault.create({
        name: `Local Dovecot ${unique}`,
        type: "imap",
        data: {
          host: "127.0.0.1",
          port: String(dovecot.port),
          secure: "false",
          user: "n8n",
          password: "n8n-pw",
          allowedHosts: "127.0.0.1",
        },
      });
      const text = fillCorpus(entry.text, { http: "", hook: "n8n/imap", unique: `${unique}_imap` });
      const imported = await importCorpusFlow(t, entry, text, { credentials: { "Local Dovecot": cred.id } });
      expect(imported.report.problems).toEqual([]);
      const box = await mailbox(dovecot, "n8n", "n8n-pw");
      await box.deliver(message({ subject: "Order 7", from: "grace@example.com" }));
      await t.host.control.setActive(imported.id, true);
      await t.host.services.imap.checked(imported.id);
      const runId = await firstRunOf(t, imported.id);
      expect((await waitForRun(t.host, runId)).status).toBe("succeeded");
      const setNode = imported.flow.nodes.find((n) => n.type === "data.set")!;
      expect(stepOutputs(t, runId).out[setNode.id]).toEqual({
        main: [expect.objectContaining({ subject: "Order 7", from: "grace@example.com" })],
      });
      expect(await box.count()).toEqual({ all: 1, unread: 0 });
      await t.host.control.setActive(imported.id, false);
      await box.close();
    } finally {
      await dovecot.stop();
    }
  }, 30_000);
});
