import type { ImapConfig } from "@switchyard/contracts/triggers";
import type { ImapFlow } from "imapflow";
import type { Logger } from "../../logger";
import type { AttachmentLimits, StoreAttachment } from "../email/build-payload";
import type { TriggerBinding } from "../listener";
import { imapPayloadJson } from "./payload";

/** The mailbox account as the listener resolved it: fields checked, address vetted by the guard. */
export interface ImapAccount {
  host: string;
  /** The vetted address to connect to (the name is never resolved again). */
  address: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
}

export interface WatcherDeps {
  binding: TriggerBinding<ImapConfig>;
  /** Reads the credential and vets its host; throws a message the health record can show. */
  account(): Promise<ImapAccount>;
  storeAttachment: StoreAttachment;
  limits: AttachmentLimits;
  log: Logger;
  firstBackoffMs?: number;
  maxBackoffMs?: number;
}

const MAX_MESSAGE_BYTES = 30 * 1024 * 1024;

/** The server's own words when it gave some (imapflow's message is often just "Command failed"). */
export function imapReason(err: unknown): string {
  const e = err as { responseText?: string; message?: string };
  if (e.responseText) return `the IMAP server said: ${e.responseText}`;
  return e.message ?? String(err);
}

/**
 * Watches one flow's mailbox: connect, check for unread mail, admit a run per message, then mark it
 * read or move it; wait for news (IDLE's EXISTS), the poll interval or a wake-up; repeat. A message is
 * marked or moved only after `fireJson` resolved (the run is durable), so a crash in between reads it
 * again rather than losing it. Any failure turns health to error with the reason and reconnects with
 * backoff (doubling up to a cap).
 */
export function createMailboxWatcher(d: WatcherDeps) {
  const { binding: b } = d;
  const config = b.config;
  const firstBackoff = d.firstBackoffMs ?? 1000;
  const maxBackoff = d.maxBackoffMs ?? 60_000;
  let stopped = false;
  let client: ImapFlow | undefined;
  /** Wakes whatever the loop waits on (news, poll timer, backoff). */
  let wake: (() => void) | undefined;
  /** Resolvers of `checked()` calls, settled after the next complete check. */
  const waiters: (() => void)[] = [];
  /** Messages whose run is admitted but whose flag or move did not go through yet (uidValidity:uid). */
  const admitted = new Set<string>();
  /** Messages that could not be turned into a payload (uidValidity:uid), skipped until reconnecting. */
  const unreadable = new Set<string>();

  /** Waits `ms`, or less when woken or when `until` calls back; `until` returns its own clean-up. */
  const pause = (ms: number, until?: (resume: () => void) => () => void) =>
    new Promise<void>((resolve) => {
      // stop() may come while a check runs (no wait to wake yet): then there is nothing to wait for.
      if (stopped) return resolve();
      const timer = setTimeout(done, ms);
      const cleanUp = until?.(done);
      function done() {
        clearTimeout(timer);
        cleanUp?.();
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  async function check(c: ImapFlow, user: string): Promise<void> {
    const uids = ((await c.search({ seen: false }, { uid: true })) || []).sort((x, y) => x - y);
    const validity = String(c.mailbox ? c.mailbox.uidValidity : "");
    for (const uid of uids) {
      if (stopped) return;
      const key = `${validity}:${uid}`;
      if (unreadable.has(key)) continue;
      if (!admitted.has(key)) {
        const msg = await c.fetchOne(String(uid), { source: true, size: true }, { uid: true });
        if (msg === false || !msg.source) continue;
        let payloadJson: string;
        try {
          payloadJson = await imapPayloadJson(msg.source, user, d);
        } catch (err) {
          // One message that cannot become a payload must not hold up the rest: it stays unread, is
          // skipped for this connection, and health names it.
          unreadable.add(key);
          const why = `message ${uid} could not be read and stays unread: ${(err as Error).message}`;
          d.log.warn({ err, flowId: b.flowId, uid }, "IMAP message could not be read");
          b.report({ lastError: why });
          continue;
        }
        // The run is durable once this resolves; only then may the message leave the unread set.
        try {
          await b.fireJson(payloadJson);
        } catch (err) {
          throw new Error(`no run admitted for message ${uid}, left unread: ${(err as Error).message}`);
        }
        admitted.add(key);
      }
      if (config.after === "move") await c.messageMove(String(uid), config.moveTo!, { uid: true });
      else await c.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
      admitted.delete(key);
    }
  }

  async function connect(): Promise<{ c: ImapFlow; user: string }> {
    const a = await d.account();
    // Loaded when a flow first watches a mailbox, not at every host start.
    const { ImapFlow: Client } = await import("imapflow");
    const c = new Client({
      host: a.address,
      port: a.port,
      secure: a.secure,
      // TLS (implicit or STARTTLS) verifies the certificate against the credential's host name.
      ...(a.host !== a.address ? { servername: a.host } : {}),
      auth: { user: a.user, pass: a.password },
      logger: false,
      connectionTimeout: 30_000,
      greetingTimeout: 16_000,
      // IDLE as soon as a check is done, so new mail (EXISTS) wakes the watcher at once.
      autoIdleDelay: 1,
      maxIdleTime: 5 * 60_000,
      maxResponseSize: MAX_MESSAGE_BYTES,
    } as ConstructorParameters<typeof Client>[0]);
    // Without a listener an 'error' event would throw; the close that follows ends the inner loop.
    c.on("error", (err: Error) => d.log.warn({ err, flowId: b.flowId }, "IMAP connection error"));
    await c.connect();
    client = c;
    await c.mailboxOpen(config.mailbox);
    return { c, user: a.user };
  }

  async function run(): Promise<void> {
    let backoff = firstBackoff;
    while (!stopped) {
      try {
        const { c: connected, user } = await connect();
        unreadable.clear();
        b.report({ status: "listening", lastError: undefined });
        backoff = firstBackoff;
        while (!stopped && connected.usable) {
          await check(connected, user);
          for (const w of waiters.splice(0)) w();
          const c = connected;
          // New mail arrives as EXISTS while imapflow idles; a closed connection ends the wait too.
          await pause(config.pollSeconds * 1000, (resume) => {
            c.on("exists", resume);
            c.on("close", resume);
            return () => {
              c.off("exists", resume);
              c.off("close", resume);
            };
          });
        }
        if (!stopped) throw new Error("the server closed the connection");
      } catch (err) {
        if (stopped) break;
        const reason = imapReason(err);
        d.log.warn({ err, flowId: b.flowId, retryInMs: backoff }, "IMAP trigger failed; reconnecting");
        b.report({ status: "error", lastError: reason });
        for (const w of waiters.splice(0)) w();
        const c = client;
        client = undefined;
        c?.close();
        await pause(backoff);
        backoff = Math.min(backoff * 2, maxBackoff);
      }
    }
  }

  const loop = run();
  return {
    /** Stops watching and logs out. */
    async stop(): Promise<void> {
      stopped = true;
      wake?.();
      const c = client;
      client = undefined;
      if (c?.usable) await c.logout().catch(() => c.close());
      else c?.close();
      await loop;
    },
    /** Test hook and "check now": wakes the watcher; resolves after its next check (or failed attempt). */
    checked(): Promise<void> {
      const done = new Promise<void>((r) => waiters.push(r));
      wake?.();
      return done;
    },
  };
}
