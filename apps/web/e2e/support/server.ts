import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureOwner, sessionFor } from "./auth";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const bin = path.join(repoRoot, "packages/runtime/bin/switchyard.mjs");

export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "switchyard-e2e-"));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the real `switchyard` CLI as a child process. */
export function runCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: "warn", SWITCHYARD_SMTP_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => out };
}

/**
 * Starts `switchyard start` and, unless `setupOwner: false`, creates (or signs in) the e2e owner so
 * `trpc()` and `useSession()` work; a test of the first-start flow passes `setupOwner: false`.
 */
export async function startServer(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  opts: { setupOwner?: boolean } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const { child, exited, output } = runCli(["start"], {
    SWITCHYARD_DATA_DIR: dataDir,
    PORT: String(port),
    ...extraEnv,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  let up = false;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`switchyard exited early (${child.exitCode}):\n${output()}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) {
        up = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!up) {
    child.kill("SIGKILL");
    throw new Error(`switchyard did not become healthy:\n${output()}`);
  }
  if (opts.setupOwner !== false) await ensureOwner(url);
  return {
    url,
    process: child,
    output,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      child.kill(signal);
      return exited;
    },
  };
}

/**
 * Calls a tRPC procedure over plain HTTP, as the browser does (no batching, no transformer), signed in
 * as the e2e owner of that server (same-origin, so writes pass the CSRF check).
 */
export async function trpc<T = unknown>(
  url: string,
  procedure: string,
  input?: unknown,
  kind: "query" | "mutation" = "query",
): Promise<T> {
  const cookie = sessionFor(url);
  const auth: Record<string, string> = cookie ? { cookie } : {};
  const res =
    kind === "query"
      ? await fetch(
          `${url}/api/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          {
            headers: auth,
          },
        )
      : await fetch(`${url}/api/trpc/${procedure}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: url, ...auth },
          body: JSON.stringify(input),
        });
  const body = (await res.json()) as { result?: { data: T }; error?: unknown };
  if (!res.ok || !body.result)
    throw new Error(`${procedure} failed (${res.status}): ${JSON.stringify(body.error)}`);
  return body.result.data;
}
