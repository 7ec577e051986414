import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import amqp from "amqplib";
import { afterEach, describe, expect, it } from "vitest";
import { closeAmqp } from "./client";

/**
 * A TCP relay to the machine's RabbitMQ that can go silent: the client's bytes are swallowed from then on,
 * as with a broker that died without the socket noticing or is restarting. Close-Ok never comes back.
 */
async function relay(): Promise<{
  port: number;
  silence(): void;
  clients: Socket[];
  close(): Promise<void>;
}> {
  let silent = false;
  const clients: Socket[] = [];
  const server: Server = createServer((client) => {
    clients.push(client);
    const broker = tcpConnect(5672, "127.0.0.1");
    client.on("data", (b) => {
      if (!silent) broker.write(b);
    });
    broker.on("data", (b) => {
      if (!silent) client.write(b);
    });
    const end = () => {
      client.destroy();
      broker.destroy();
    };
    client.on("close", end);
    broker.on("close", end);
    client.on("error", end);
    broker.on("error", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as { port: number }).port,
    silence: () => {
      silent = true;
    },
    clients,
    close: () =>
      new Promise<void>((r) => {
        for (const c of clients) c.destroy();
        server.close(() => r());
      }),
  };
}

const relays: Awaited<ReturnType<typeof relay>>[] = [];
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});

/** A connection through a relay that has just gone silent. */
async function silenced() {
  const r = await relay();
  relays.push(r);
  const conn = await amqp.connect(`amqp://guest:guest@127.0.0.1:${r.port}`);
  conn.on("error", () => {});
  r.silence();
  return { r, conn };
}

/** Whether the relay's side of a client socket closes within a second (polling; the wait decides nothing). */
async function socketGone(s: Socket): Promise<boolean> {
  for (let i = 0; i < 100 && !s.destroyed; i++) await new Promise((res) => setTimeout(res, 10));
  return s.destroyed;
}

describe("closeAmqp", () => {
  it("closes a healthy connection cleanly", async () => {
    const r = await relay();
    relays.push(r);
    const conn = await amqp.connect(`amqp://guest:guest@127.0.0.1:${r.port}`);
    let closed = false;
    conn.on("close", () => {
      closed = true;
    });
    await closeAmqp(conn, 5_000);
    expect(closed).toBe(true);
  });

  it("leaves amqplib's own close() waiting forever on a broker that never answers Close-Ok", async () => {
    const { conn } = await silenced();
    const plain = conn.close().then(
      () => "settled",
      () => "settled",
    );
    const after = await Promise.race([plain, new Promise((res) => setTimeout(() => res("pending"), 500))]);
    expect(after).toBe("pending");
  });

  it("gives up on such a broker after its bound and drops the socket", async () => {
    const { r, conn } = await silenced();
    await closeAmqp(conn, 200);
    // The relay sees the client's socket go, as the broker would.
    expect(await socketGone(r.clients[0]!)).toBe(true);
  });

  it("drops the socket at once when amqplib refuses the close (the connection is already closing)", async () => {
    const { r, conn } = await silenced();
    void conn.close().catch(() => {});
    await closeAmqp(conn, 60_000);
    expect(await socketGone(r.clients[0]!)).toBe(true);
  });
});
