import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrivateRabbit, startRabbit } from "../../../../nodes/src/__tests__/private-brokers";
import { countIds, declareDurable, publishStream, queueState } from "../../__tests__/amqp-stream";
import { allowLoopback, brokerCredential, payloadsOf, triggerFlow, until } from "../../__tests__/broker-host";
import { sqliteOf, startTestHost } from "../../__tests__/test-host";

/*
 * The acceptance test of #24 for the broker side: a RabbitMQ node of the test's own (never the
 * machine's shared one) is SIGKILLed while messages stream through the trigger, then restarted on the
 * same data. Every message must end up as exactly one run.
 */

const N = 500;
let rabbit: PrivateRabbit;
let t: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  rabbit = await startRabbit();
  t = await startTestHost();
}, 300_000);
afterAll(async () => {
  await t?.close();
  await rabbit?.stop();
}, 60_000);

describe("trigger.amqp when the broker is SIGKILLed mid-stream", () => {
  it("loses no message and starts exactly one run per message id", async () => {
    const { host } = t;
    const url = `amqp://guest:guest@127.0.0.1:${rabbit.port}`;
    const queue = "sy-kill-orders";
    await allowLoopback(host);
    const credentialId = await brokerCredential(host, "amqp", {
      port: String(rabbit.port),
      vhost: "/",
      user: "guest",
      password: "guest",
    });
    await declareDurable(url, queue);
    // The case under test is a queue that existed before the crash. A SIGKILL seconds after declaring it once
    // lost the declaration itself in CI (the node's log at the restart: "Recovering 0 queues"), so the node
    // is first restarted in order, which puts the declaration on disk.
    await rabbit.restartCleanly();
    expect((await queueState(url, queue)).messages).toBe(0);
    const { id: flowId } = await host.flows.create({
      name: "Orders",
      definition: triggerFlow("trigger.amqp", { credentialId, queue, prefetch: 10 }),
    });
    await host.control.setActive(flowId, true);
    await until("the consumer", async () => (await queueState(url, queue)).consumers === 1);

    const runCount = () =>
      (sqliteOf(host).prepare(`SELECT COUNT(*) n FROM "Run" WHERE flowId = ?`).get(flowId) as { n: number })
        .n;
    const healthSeen: string[] = [];
    let runsAtKill = -1;
    // Once a fifth of the stream has runs, the broker dies, and comes back on the same data.
    const killer = (async () => {
      await until("100 runs", () => runCount() >= 100);
      runsAtKill = runCount();
      await rabbit.kill();
      await until("error health", () => host.services.triggers.health(flowId)?.status === "error");
      healthSeen.push(host.services.triggers.health(flowId)!.lastError!);
      await rabbit.restart();
    })();
    const published = await publishStream({ url, queue, count: N });
    await killer;

    const state = async () => ({
      ids: countIds(payloadsOf(host, flowId)).size,
      runs: runCount(),
      health: host.services.triggers.health(flowId),
      queue: await queueState(url, queue).catch((e: Error) => e.message),
      // What the broker recovered at each boot ("Recovering N queues …"): a broker that lost the queue or its
      // messages is told from a trigger that lost them.
      published,
      broker: rabbit.recoveryLog(),
    });
    await until(
      "a run for every message",
      () => countIds(payloadsOf(host, flowId)).size === N,
      300_000,
      state,
    );
    await until("listening again", () => host.services.triggers.health(flowId)?.status === "listening");
    await until("the queue to drain", async () => (await queueState(url, queue)).messages === 0);

    const counts = countIds(payloadsOf(host, flowId));
    const expected = Array.from({ length: N }, (_, i) => `m-${i}`);
    expect([...counts.keys()].sort()).toEqual(expected.sort());
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(runCount()).toBe(N);
    // Mid-stream: the kill came after runs had started and before the stream was through.
    expect(runsAtKill).toBeGreaterThanOrEqual(100);
    expect(runsAtKill).toBeLessThan(N);
    expect(healthSeen[0]).toMatch(/^trigger\.amqp: connection to 127\.0\.0\.1:\d+ lost: /);
    const redelivered = payloadsOf(host, flowId).filter((p) => p.redelivered).length;
    console.log(
      `broker kill: runs at kill ${runsAtKill}/${N}, batches republished ${published.republishedBatches}, runs of redelivered messages ${redelivered}`,
    );
  }, 600_000);
});
