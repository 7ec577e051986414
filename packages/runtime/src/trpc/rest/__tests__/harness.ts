import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { z } from "zod";
import { parseConfig } from "../../../config";
import { createHost, type Host } from "../../../host";
import { createHttpServer, listen } from "../../../http/server";
import { createLogger } from "../../../logger";
import { createApiHandler } from "../handler";
import { operationById } from "../operations";
import { errorBody } from "../schemas";

export interface Keys {
  /** Owner key with read + write. */
  owner: string;
  /** Owner key with read only. */
  readOnly: string;
  /** Viewer account key that asked for write too: the role still forbids writes. */
  viewer: string;
}

/**
 * A started host on a temp data dir, served like `switchyard worker` does (hooks + /api/v1) on
 * 127.0.0.1, with an owner and a viewer and their API keys.
 */
export async function startApiHost(opts: { maxBodyBytes?: number } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "sy-api-"));
  const config = parseConfig({ SWITCHYARD_DATA_DIR: dir, SWITCHYARD_SMTP_PORT: "0", LOG_LEVEL: "silent" });
  const host: Host = await createHost(config, createLogger("silent"), { seed: false });
  await host.start();
  const server = createHttpServer(host, {
    hooks: host.services.webhookHandler,
    api: createApiHandler(host, opts),
  });
  const { port } = await listen(server, 0, "127.0.0.1");
  const owner = await host.auth.createUser(
    null,
    { email: "owner@example.com", password: "correct horse battery", role: "owner" },
    "test",
  );
  const viewer = await host.auth.createUser(
    null,
    { email: "viewer@example.com", password: "correct horse battery", role: "viewer" },
    "test",
  );
  const keys: Keys = {
    owner: (await host.auth.createApiKey(owner.id, owner.id, { name: "rw", scopes: ["read", "write"] })).key,
    readOnly: (await host.auth.createApiKey(owner.id, owner.id, { name: "ro", scopes: ["read"] })).key,
    viewer: (
      await host.auth.createApiKey(viewer.id, viewer.id, { name: "viewer", scopes: ["read", "write"] })
    ).key,
  };
  const url = `http://127.0.0.1:${port}`;

  /** One API call; `key: null` sends no credentials. */
  async function api(
    method: string,
    p: string,
    o: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
  ) {
    const key = o.key === undefined ? keys.owner : o.key;
    const headers: Record<string, string> = {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...o.headers,
    };
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${url}/api/v1${p}`, { method, headers, body });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
    const json: any = text ? JSON.parse(text) : undefined;
    return { status: res.status, headers: res.headers, json };
  }

  return {
    host,
    dir,
    url,
    keys,
    api,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type ApiHost = Awaited<ReturnType<typeof startApiHost>>;

/**
 * Parses an answer with the output schema of the operation's procedure (the one the document describes),
 * or the error shape, after checking the status is one the operation declares.
 */
// biome-ignore lint/suspicious/noExplicitAny: the parsed answer is read freely by the assertions
export function conforms(operationId: string, res: { status: number; json: unknown }): any {
  const op = operationById(operationId);
  if (res.status >= 400) return errorBody.parse(res.json);
  const declared =
    typeof op.rest.status === "function"
      ? [200, 202]
      : [typeof op.rest.status === "number" ? op.rest.status : 200];
  if (!declared.includes(res.status))
    throw new Error(`${operationId} does not declare status ${res.status}: ${JSON.stringify(res.json)}`);
  const output = (op.procedureDef as { output?: z.ZodType }).output;
  if (!output) throw new Error(`${operationId} declares no output schema`);
  return output.parse(res.json);
}

/** Example flow files shipped in examples/flows, by file name. */
export function exampleFile(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(examplesDir, name), "utf8"));
}

export const examplesDir = path.resolve(import.meta.dirname, "../../../../../../examples/flows");

/** A flow body for POST /flows from an example file. */
export function exampleBody(name: string) {
  const { $schema: _s, name: flowName, description, ...definition } = exampleFile(name);
  return { name: flowName as string, description: description as string, definition };
}
