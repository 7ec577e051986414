import type { IncomingMessage } from "node:http";
import { jsonNestingPastLimit, MAX_JSON_DEPTH } from "@switchyard/engine";
import { type ErrorCode, HostError, statusOf } from "../../errors/codes";

/** A request the webhook (or REST) edge refuses; its status comes from the code's entry in errors/codes.ts. */
export class HttpInputError extends HostError {
  override name = "HttpInputError";
  get status(): number {
    return statusOf(this.errorCode);
  }
  get code(): ErrorCode {
    return this.errorCode;
  }
}

/**
 * Reads the raw body, refusing (413) as soon as it passes the limit instead of buffering it all.
 * Plain stream events rather than `for await`: the async iterator was ≈ 3 % of a webhook request's CPU
 * profile, and when it stopped early it destroyed the request, leaving `req.socket` null for the 413.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(
      new HttpInputError(
        "payload_too_large",
        `body of ${declared} bytes exceeds the limit of ${limit} bytes`,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // The rest is never read: the handler answers 413 and then closes the connection.
        stop();
        req.pause();
        reject(new HttpInputError("payload_too_large", `body exceeds the limit of ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (e: Error) => {
      stop();
      reject(e);
    };
    const onClose = () => {
      stop();
      reject(new HttpInputError("incomplete_body", "the connection closed before the request body ended"));
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/**
 * Sets an own key as JSON.parse would: `out[k] = v` would call Object.prototype's `__proto__` setter
 * instead. Faster than building a Map and Object.fromEntries on the hot path.
 */
export function setOwn<T>(out: Record<string, T>, k: string, v: T): void {
  if (k === "__proto__")
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/**
 * Name/value pairs (a query string, a form body) as JSON would carry them: a repeated name becomes an
 * array, and every name — `__proto__` and `constructor` included — is an ordinary own key holding strings.
 * Never a bare `out[k]` read: that returns inherited Object.prototype members as request data (#18).
 */
export function pairsToRecord(pairs: Iterable<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of pairs) {
    const prev = Object.hasOwn(out, k) ? out[k] : undefined;
    if (prev === undefined) setOwn(out, k, v);
    else if (Array.isArray(prev)) prev.push(v);
    else setOwn(out, k, [prev, v]);
  }
  return out;
}

const mediaType = (req: IncomingMessage) =>
  (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();

/** Parses by the trigger's declared body type only; the caller's content type must agree. */
export function parseBody(
  req: IncomingMessage,
  raw: Buffer,
  bodyType: "json" | "form" | "text" | "raw",
): unknown {
  if (bodyType === "raw") return raw.length ? raw.toString("base64") : null;
  if (raw.length === 0) return null;
  const type = mediaType(req);
  if (bodyType === "json") {
    if (type !== "application/json" && !type.endsWith("+json")) {
      throw new HttpInputError(
        "unsupported_media_type",
        `this webhook accepts application/json, got ${type || "no content type"}`,
      );
    }
    const text = raw.toString("utf8");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new HttpInputError("malformed_json", describeJsonError(text, (e as Error).message));
    }
    const at = jsonNestingPastLimit(raw);
    if (at >= 0) {
      throw new HttpInputError(
        "body_too_deep",
        `JSON body nests deeper than ${MAX_JSON_DEPTH} levels (at byte ${at}); send it flatter`,
      );
    }
    return value;
  }
  if (bodyType === "form") {
    if (type !== "application/x-www-form-urlencoded") {
      throw new HttpInputError(
        "unsupported_media_type",
        `this webhook accepts application/x-www-form-urlencoded, got ${type || "no content type"}`,
      );
    }
    return pairsToRecord(new URLSearchParams(raw.toString("utf8")));
  }
  return raw.toString("utf8");
}

/** "malformed JSON body at line 2, column 5 (position 12): Unexpected token …" — where, then why. */
export function describeJsonError(text: string, message: string): string {
  const m = /at position (\d+)/.exec(message);
  const reason = message
    .replace(/\s*(in JSON )?at position \d+.*$/, "")
    .replace(/\s*\(line \d+ column \d+\)$/, "");
  if (!m) return `malformed JSON body: ${reason}`;
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  const line = before.split("\n").length;
  const column = pos - before.lastIndexOf("\n");
  return `malformed JSON body at line ${line}, column ${column} (position ${pos}): ${reason}`;
}
