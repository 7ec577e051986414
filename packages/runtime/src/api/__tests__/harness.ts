import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseConfig } from "../../config";
import { createHost, type Host } from "../../host";
import { createHttpServer, listen } from "../../http/server";
import { createLogger } from "../../logger";
import { createApiHandler } from "../index";

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
  const server = createHttpServer(host, { hooks: host.services.webhookHandler, api: createApiHandler(host, opts) });
  const { port } = await listen(server, 0, "127.0.0.1");
  const owner = await host.auth.createUser(null, { email: "owner@example.com", password: "correct horse battery", role: "owner" }, "test");
  const viewer = await host.auth.createUser(null, { email: "viewer@example.com", password: "correct horse battery", role: "viewer" }, "test");
  const keys: Keys = {
    owner: (await host.auth.createApiKey(owner.id, owner.id, { name: "rw", scopes: ["read", "write"] })).key,
    readOnly: (await host.auth.createApiKey(owner.id, owner.id, { name: "ro", scopes: ["read"] })).key,
    viewer: (await host.auth.createApiKey(viewer.id, viewer.id, { name: "viewer", scopes: ["read", "write"] })).key,
  };
  const url = `http://127.0.0.1:${port}`;

  /** One API call; `key: null` sends no credentials. */
  async function api(method: string, p: string, o: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
    const key = o.key === undefined ? keys.owner : o.key;
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...o.headers };
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
