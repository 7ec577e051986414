import { request } from "node:http";

export interface EndlessBodyOptions {
  headers?: Record<string, string>;
  /** Bytes written per tick. */
  chunkBytes?: number;
  /** Stop after this many bytes even without an answer (a server that never answers fails the test, not the run). */
  maxBytes?: number;
}

/**
 * POSTs a chunked body (no content-length) that never ends and resolves with the answer. Writing stops as
 * soon as the answer starts. A reset or a broken pipe on a write is expected once the server refuses the
 * body; it only fails the call when no answer arrived at all, and then says so.
 */
export function postEndlessBody(
  url: string,
  opts: EndlessBodyOptions = {},
): Promise<{ status: number; body: string }> {
  const {
    headers = { "content-type": "application/json" },
    chunkBytes = 512,
    maxBytes = 64 * 1024 * 1024,
  } = opts;
  return new Promise((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = request(url, { method: "POST", headers }, (res) => {
      answered = true;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: text });
      });
      res.on("error", (e) =>
        reject(
          new Error(
            `the answer was cut off (${(e as NodeJS.ErrnoException).code ?? e.message}) after: ${text}`,
          ),
        ),
      );
    });
    req.on("error", (e) => {
      if (!answered)
        reject(
          new Error(
            `no answer before the connection failed: ${(e as NodeJS.ErrnoException).code ?? e.message}`,
          ),
        );
    });
    const chunk = "x".repeat(chunkBytes);
    const write = () => {
      if (answered || req.destroyed || sent >= maxBytes) return;
      sent += chunk.length;
      // Wait for the socket to take each chunk: a paused server must not make us buffer without bound.
      if (req.write(chunk)) setImmediate(write);
      else req.once("drain", write);
    };
    req.flushHeaders();
    write();
  });
}
