import type { ServerResponse } from "node:http";

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
