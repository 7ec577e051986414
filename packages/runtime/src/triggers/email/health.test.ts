import { type Server, connect, createServer } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { DOMAIN, binding, startIngress, waitFor } from "./__tests__/harness";
import type { SmtpIngressHealth } from "./index";
import { createSmtpIngress } from "./smtp-ingress";

let h: Awaited<ReturnType<typeof startIngress>>;
afterEach(async () => h?.close());

const fixedNow = () => new Date("2024-03-01T12:00:00Z");

function listenOn(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(undefined));
    s.listen(port, "127.0.0.1", () => resolve(s));
  });
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

describe("SMTP ingress: listener health", () => {
  it("flips to error with a message when the listener fails, logs it, restarts by itself and accepts mail again", async () => {
    const seen: SmtpIngressHealth[] = [];
    h = await startIngress({ now: fixedNow, onHealth: (x) => seen.push(x) });
    h.ingress.bind(binding("orders"));
    expect(h.ingress.health()).toEqual({ status: "listening", lastEventAt: "2024-03-01T12:00:00.000Z" });

    h.ingress.simulateFailure();
    expect(h.ingress.health()).toEqual({
      status: "error",
      lastError: "simulated listener failure",
      lastEventAt: "2024-03-01T12:00:00.000Z",
    });
    expect(
      h.logs.some(
        (l) =>
          l.level === 50 &&
          l.msg === "SMTP listener failed; restarting" &&
          l.err?.message === "simulated listener failure",
      ),
    ).toBe(true);

    await waitFor(() => h.ingress.health().status === "listening");
    expect(seen.map((x) => x.status)).toEqual(["listening", "error", "listening"]);
    await h.send({ from: "ada@example.com", to: `orders@${DOMAIN}`, subject: "after restart", text: "x" });
    expect(h.admitted.map((a) => a.payload.subject)).toEqual(["after restart"]);
  });

  it("keeps retrying with backoff while the port is taken, reporting the bind error, until it listens again", async () => {
    h = await startIngress();
    h.ingress.bind(binding("orders"));
    h.ingress.simulateFailure();
    // the failed listener has let go of the port; grab it before the first restart (100 ms later) can
    const squatter = await listenOn(h.port);
    expect(squatter).toBeDefined();
    await waitFor(() => h.ingress.health().lastError?.includes("EADDRINUSE") === true);
    expect(h.ingress.health().status).toBe("error");
    expect(h.logs.filter((l) => l.msg === "SMTP listener restart failed").length).toBeGreaterThan(0);
    await new Promise<void>((r) => squatter?.close(() => r()));
    await waitFor(() => h.ingress.health().status === "listening", 10_000);
    await h.send({ from: "ada@example.com", to: `orders@${DOMAIN}`, text: "x" });
    expect(h.admitted).toHaveLength(1);
  });

  it("rejects start when the port is already in use and reports the error", async () => {
    const blocker = await listenOn(0);
    const address = blocker?.address();
    const port = address && typeof address === "object" ? address.port : 0;
    const log = pino({ level: "silent" });
    const ingress = createSmtpIngress({
      host: "127.0.0.1",
      port,
      domain: DOMAIN,
      log,
      admit: async () => "run",
      storeAttachment: async () => "att",
    });
    await expect(ingress.start()).rejects.toThrow(/EADDRINUSE/);
    expect(ingress.health()).toMatchObject({
      status: "error",
      lastError: expect.stringMatching(/EADDRINUSE/),
    });
    await new Promise<void>((r) => blocker?.close(() => r()));
  });

  it("stops listening on stop and reports it", async () => {
    h = await startIngress();
    await h.close();
    expect(h.ingress.health()).toMatchObject({ status: "error", lastError: "stopped" });
    expect(await refusesConnections(h.port)).toBe(true);
  });
});
