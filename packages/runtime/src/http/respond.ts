import type { IncomingMessage, ServerResponse } from "node:http";

/** The one error body shape every HTTP edge answers with. Never a stack. */
export function sendError(res: ServerResponse, status: number, code: string, message: string, details?: unknown): void {
  sendJson(res, status, { error: { code, message, ...(details === undefined ? {} : { details }) } });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(json),
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(json);
}

/**
 * Closes the connection once the answer is out: for answers sent before the request body was read to its
 * end (413), so the unread bytes are never parsed as the next request on a kept-alive socket. The socket
 * is taken now, because by "finish" the request may have let go of it (and a throw there would stop the
 * process).
 */
export function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  res.once("finish", () => socket?.destroy());
}
