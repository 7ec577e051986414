import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createHashingEmbedder } from "../embed/hashing";

export interface RecordedRequest {
  url: string;
  headers: IncomingMessage["headers"];
  body: { model: string; input: string[]; dimensions?: number };
}

/**
 * A loopback OpenAI-compatible `/v1/embeddings` server. Vectors come from the hashing embedder
 * (so similar texts get similar vectors); `reply` can override a response to script failures.
 */
export async function startEmbeddingsServer(
  options: {
    dimensions?: number;
    reply?: (req: RecordedRequest) => { status: number; body: string } | undefined;
  } = {},
) {
  const inner = createHashingEmbedder({ dimensions: options.dimensions ?? 64 });
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", async () => {
      const rec: RecordedRequest = {
        url: req.url ?? "",
        headers: req.headers,
        body: JSON.parse(raw || "{}"),
      };
      requests.push(rec);
      const custom = options.reply?.(rec);
      if (custom) {
        res.writeHead(custom.status, { "content-type": "application/json" }).end(custom.body);
        return;
      }
      const vectors = await inner.embed(rec.body.input);
      // Reverse order on purpose: clients must place rows by `index`.
      const data = vectors.map((v, index) => ({ object: "embedding", index, embedding: [...v] })).reverse();
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
