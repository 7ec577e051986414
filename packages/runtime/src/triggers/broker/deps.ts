import type { SecretsReader } from "@switchyard/engine";
import type { GuardedHttpClient } from "@switchyard/nodes";
import type { Logger } from "../../logger";

/** What a broker trigger's listener needs from the host: credentials, the outbound guard, a log. */
export interface BrokerListenerDeps {
  secrets: SecretsReader;
  /** The same address guard outbound HTTP passes (credential hosts are vetted before connecting). */
  guard: Pick<GuardedHttpClient, "vetHost">;
  log: Logger;
  /** Reconnect backoff (tests shorten it). */
  reconnect?: { minDelayMs?: number; maxDelayMs?: number };
}

/** A message body as a payload carries it: parsed JSON when it parses, else the text. */
export function decodeBody(body: Buffer): unknown {
  const text = body.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
