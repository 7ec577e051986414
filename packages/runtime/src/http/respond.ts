import type { IncomingMessage, ServerResponse } from "node:http";
import { type ErrorCode, statusOf } from "../errors/codes";

/**
 * The one error body shape every HTTP edge answers with, its status taken from the code's entry in the
 * one list (errors/codes.ts). Never a stack.
 */
export function answerError(
  res: ServerResponse,
  code: ErrorCode,
  message: string,
  details?: unknown,
  headers: Record<string, string> = {},
): void {
  const body = { error: { code, message, ...(details === undefined ? {} : { details }) } };
  sendJson(res, statusOf(code), body, headers);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(json);
}

/** How long, and how many bytes, a refused request's unread body is drained before its socket is destroyed. */
const LINGER_MS = 2000;
const LINGER_BYTES = 8 * 1024 * 1024;

/**
 * Closes the connection once the answer is out: for answers sent before the request body was read to its
 * end (413), so the unread bytes are never parsed as the next request on a kept-alive socket.
 *
 * A lingering close, as Go's net/http and nginx do: destroying a socket that still has unread input makes
 * the kernel send a reset, and a reset can reach the client before it has read the answer (it then sees
 * ECONNRESET, not 413). So the answer is followed by a FIN, what the client still sends is read and
 * discarded for a bounded time and size, and only then is the socket destroyed. No `Connection: close`
 * header: Node answers that with its own immediate destroy, the reset this avoids. The socket is taken now,
 * because by "finish" the request may have let go of it (and a throw there would stop the process).
 */
export function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  res.once("finish", () => {
    if (!socket || socket.destroyed) return;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    let drained = 0;
    req.on("data", (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) socket.destroy();
    });
    req.on("end", () => socket.destroy());
    req.resume();
    socket.end();
  });
}
