import type { SMTPServer } from "smtp-server";
import type { Logger } from "../../logger";

export interface Health {
  status: "listening" | "error";
  lastEventAt?: string;
  lastError?: string;
}

export interface SupervisorOptions {
  host: string;
  port: number;
  newServer(): SMTPServer;
  log: Logger;
  now?: () => Date;
  onHealth?(h: Health): void;
}

const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 30_000;

/**
 * Keeps one SMTP listener up. When the listening socket fails or closes on its own, health turns
 * to `error` and a fresh server is started on the same port, backing off 100 ms, 200 ms, … up to
 * 30 s between attempts, until it listens again. Sessions already open on the failed listener are
 * left to finish. Connection-level errors (resets, timeouts) are logged, never fatal.
 */
export function createListenerSupervisor(o: SupervisorOptions) {
  const now = o.now ?? (() => new Date());
  let current: SMTPServer | undefined;
  let port = o.port;
  let stopped = true;
  let backoff = FIRST_BACKOFF_MS;
  let timer: NodeJS.Timeout | undefined;
  let state: Health = { status: "error", lastError: "not started" };

  const report = (next: Omit<Health, "lastEventAt">): void => {
    state = { ...next, lastEventAt: now().toISOString() };
    try {
      o.onHealth?.({ ...state });
    } catch (err) {
      o.log.error({ err }, "onHealth callback failed");
    }
  };

  const failed = (server: SMTPServer, err: Error): void => {
    if (current !== server) return; // a later error of a listener already given up on
    current = undefined;
    o.log.error({ err, port }, "SMTP listener failed; restarting");
    report({ status: "error", lastError: err.message });
    server.close(() => {});
    scheduleRestart();
  };

  const listen = (): Promise<SMTPServer> =>
    new Promise((resolve, reject) => {
      const server = o.newServer();
      // smtp-server re-emits every socket and listener error here; without a listener each would
      // throw. Listener failures are handled below on the net.Server itself.
      server.on("error", (err: Error) => o.log.warn({ err }, "SMTP server error"));
      const refused = (err: Error) => {
        server.close(() => {});
        reject(err);
      };
      server.server.once("error", refused);
      server.server.listen(port, o.host, () => {
        server.server.off("error", refused);
        server.server.on("error", (err) => failed(server, err));
        server.server.on("close", () => failed(server, new Error("SMTP listener closed unexpectedly")));
        const address = server.server.address();
        if (address && typeof address === "object") port = address.port;
        resolve(server);
      });
    });

  const scheduleRestart = (): void => {
    if (stopped) return;
    const delay = backoff;
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    timer = setTimeout(() => {
      timer = undefined;
      listen().then(
        (server) => {
          if (stopped) return void server.close(() => {});
          current = server;
          backoff = FIRST_BACKOFF_MS;
          o.log.info({ port }, "SMTP listener restarted");
          report({ status: "listening" });
        },
        (err: Error) => {
          o.log.error({ err, port, retryInMs: backoff }, "SMTP listener restart failed");
          report({ status: "error", lastError: err.message });
          scheduleRestart();
        },
      );
    }, delay);
  };

  return {
    /** Listens once; rejects (health `error`) when the port cannot be bound, without retrying. */
    async start(): Promise<{ port: number }> {
      if (!stopped) throw new Error("SMTP ingress is already started");
      stopped = false;
      try {
        current = await listen();
      } catch (err) {
        stopped = true;
        report({ status: "error", lastError: (err as Error).message });
        throw err;
      }
      o.log.info({ host: o.host, port }, "SMTP listener started");
      report({ status: "listening" });
      return { port };
    },
    /** Stops listening and waits (up to 10 s) for open sessions to finish. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      const server = current;
      current = undefined;
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
      report({ status: "error", lastError: "stopped" });
    },
    health: (): Health => ({ ...state }),
    /** Test hook: the listening socket errors and goes away, as when the OS tears it down. */
    simulateFailure(): void {
      const server = current;
      if (!server) return;
      server.server.emit("error", new Error("simulated listener failure"));
    },
    /** Marks activity (an admitted message) so the health record shows the listener is alive. */
    touch(): void {
      if (state.status === "listening") report({ status: "listening" });
    },
  };
}
