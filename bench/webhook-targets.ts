/** Servers the webhook benchmark drives: a raw node:http baseline, the durable floor, Switchyard, and optionally Node-RED. */
import autocannon from "autocannon";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** W2: webhook (sync) → data.set {ok: true, n: n + 1} → webhook.respond. */
export const w2 = {
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path: "w2", responseMode: "sync" } },
    {
      id: "set",
      type: "data.set",
      config: {
        fields: [
          { name: "ok", value: "=true" },
          { name: "n", value: "=item.body.n + 1" },
        ],
        keepOnlySet: true,
      },
    },
    { id: "respond", type: "webhook.respond", config: { status: 200, body: "=item" } },
  ],
  edges: [
    { from: { node: "hook", port: "main" }, to: { node: "set", port: "main" } },
    { from: { node: "set", port: "main" }, to: { node: "respond", port: "main" } },
  ],
};
/** W1: webhook (sync) → webhook.respond. */
export const w1 = {
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path: "w1", responseMode: "sync" } },
    { id: "respond", type: "webhook.respond", config: { status: 200, body: "={ 'ok': true }" } },
  ],
  edges: [{ from: { node: "hook", port: "main" }, to: { node: "respond", port: "main" } }],
};

export interface Target {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "..");

export function waitForLine(child: ChildProcess, re: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (d: Buffer) => {
      out += d;
      const m = re.exec(out);
      if (m) resolve(m);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`${what} exited (${code}) before it was ready:\n${out.slice(-2000)}`)),
    );
  });
}

export const stopper = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

/** The same work as W2 with nothing in between: parse JSON, answer {ok, n+1}. Persists nothing. */
export async function startRaw(): Promise<Target> {
  const code = `
    const http = require("node:http");
    const s = http.createServer((req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
        const out = JSON.stringify({ ok: true, n: (body.n ?? 0) + 1 });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
        res.end(out);
      });
    });
    s.keepAliveTimeout = 65000;
    s.listen(0, "127.0.0.1", () => console.log("raw listening on " + s.address().port));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "pipe"] });
  const m = await waitForLine(child, /raw listening on (\d+)/, "raw server");
  return { name: "raw node:http", url: `http://127.0.0.1:${m[1]}`, pid: child.pid!, stop: stopper(child) };
}

/**
 * The durable floor (bench/durable-floor.mjs): raw node:http plus the run and its three step rows
 * group-committed into Switchyard's schema before answering. `dbFile` must be a migrated database
 * holding the flow `flowId`.
 */
export async function startDurableFloor(
  dbFile: string,
  flowId: string,
  nodeArgs: string[] = [],
): Promise<Target> {
  const sqlite = createRequire(path.join(root, "packages/db/package.json")).resolve("better-sqlite3");
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(here, "durable-floor.mjs"), dbFile, flowId, sqlite],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const m = await waitForLine(child, /durable floor listening on (\d+)/, "durable floor");
  return { name: "durable floor", url: `http://127.0.0.1:${m[1]}`, pid: child.pid!, stop: stopper(child) };
}

/** How Switchyard is started: `start` is what `npm start` runs (web app, API, triggers, runs), `worker` runs without the web app. */
export type Role = "start" | "worker";

export async function startSwitchyard(
  dataDir: string,
  opts: {
    role?: Role;
    nodeArgs?: string[];
    checkout?: string;
    name?: string;
    /** Everything the process prints, as it prints it (a GC trace, say). */
    onOutput?: (chunk: string) => void;
  } = {},
): Promise<Target> {
  const { role = "start", nodeArgs = [], checkout = root } = opts;
  const name = opts.name ?? (role === "start" ? "Switchyard" : "Switchyard worker");
  // Measured as deployed: the precompiled runtime (the process says which code it runs).
  execFileSync(process.execPath, [path.join(checkout, "packages/runtime/scripts/build-dist.mjs")], {
    stdio: "inherit",
  });
  if (role === "start" && !existsSync(path.join(checkout, "apps/web/.next/BUILD_ID")))
    throw new Error(
      `the web app in ${checkout} is not built: run \`node scripts/run.mjs turbo run build --filter=@switchyard/web\` there`,
    );
  const child = spawn(
    process.execPath,
    [
      ...launchFlags(checkout, role),
      ...nodeArgs,
      path.join(checkout, "packages/runtime/bin/switchyard.mjs"),
      role,
    ],
    {
      env: {
        ...process.env,
        SWITCHYARD_DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        SWITCHYARD_SMTP_PORT: "0",
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  if (opts.onOutput) child.stdout?.on("data", (d: Buffer) => opts.onOutput!(d.toString()));
  // `start` prints "is running at http://127.0.0.1:PORT (origin)", `worker` "listening on HOST:PORT (origin)".
  const m = await waitForLine(
    child,
    /(?:listening on [\d.]+:|running at http:\/\/[\w.]+:)(\d+)\S* \(([^)]+)\)/,
    `switchyard ${role}`,
  );
  if (m[2] !== "precompiled") throw new Error(`switchyard ${role} runs ${m[2]}, not the precompiled runtime`);
  return { name, url: `http://127.0.0.1:${m[1]}`, pid: child.pid!, stop: stopper(child) };
}

/**
 * The Node.js flags a checkout starts Switchyard with, as people start it: `start` as `npm start` does (the
 * flags in package.json's start script), `worker` as the bin's shebang does. V8 flags such as the young
 * generation's size must be on the command line, so the bench has to pass them as those do.
 */
export function launchFlags(checkout: string, role: Role): string[] {
  const command =
    role === "start"
      ? (JSON.parse(readFileSync(path.join(checkout, "package.json"), "utf8")).scripts.start as string)
      : readFileSync(path.join(checkout, "packages/runtime/bin/switchyard.mjs"), "utf8").split("\n")[0]!;
  return (/\bnode((?:\s+--[\w-]+(?:=\S+)?)*)/.exec(command)?.[1] ?? "").split(/\s+/).filter(Boolean);
}

/**
 * A checkout of another commit in bench/.cache (a git worktree), installed like a fresh clone, so a change's
 * cost is measured against its parent inside one interleaved run rather than across noisy minutes.
 */
export function baselineCheckout(ref: string): { dir: string; sha: string } {
  const sha = execFileSync("git", ["rev-parse", "--short", `${ref}^{commit}`], {
    cwd: root,
    encoding: "utf8",
  }).trim();
  const dir = path.join(root, "bench/.cache", `baseline-${sha}`);
  if (!existsSync(dir))
    execFileSync("git", ["worktree", "add", "--detach", dir, sha], { cwd: root, stdio: "inherit" });
  execFileSync(process.execPath, [path.join(dir, "scripts/bootstrap.mjs")], { cwd: dir, stdio: "inherit" });
  // `switchyard start` serves the web app, so the baseline needs its own build (turbo skips it when cached).
  execFileSync(
    process.execPath,
    [
      path.join(dir, "scripts/run.mjs"),
      "turbo",
      "run",
      "build",
      "--filter=@switchyard/web",
      "--output-logs=errors-only",
    ],
    { cwd: dir, stdio: "inherit" },
  );
  return { dir, sha };
}

const NODE_RED_VERSION = "4.1.15";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Installs Node-RED into a cache folder once (npm registry), then runs the equivalent flow. */
export async function startNodeRed(workDir: string): Promise<Target> {
  const install = path.join(root, "bench/.cache/node-red");
  const bin = path.join(install, "node_modules/node-red/red.js");
  if (!existsSync(bin)) {
    mkdirSync(install, { recursive: true });
    console.log(`installing node-red@${NODE_RED_VERSION} into bench/.cache (one time)…`);
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        install,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `node-red@${NODE_RED_VERSION}`,
      ],
      {
        stdio: "inherit",
      },
    );
  }
  const userDir = path.join(workDir, "node-red");
  mkdirSync(userDir, { recursive: true });
  const flows = [
    { id: "tab", type: "tab", label: "bench" },
    { id: "in2", type: "http in", z: "tab", url: "/w2", method: "post", wires: [["fn2"]] },
    {
      id: "fn2",
      type: "function",
      z: "tab",
      func: "msg.payload = { ok: true, n: (msg.payload.n || 0) + 1 };\nreturn msg;",
      outputs: 1,
      wires: [["out2"]],
    },
    { id: "out2", type: "http response", z: "tab", wires: [] },
    { id: "in1", type: "http in", z: "tab", url: "/w1", method: "post", wires: [["out1"]] },
    { id: "out1", type: "http response", z: "tab", wires: [] },
  ];
  writeFileSync(path.join(userDir, "flows.json"), JSON.stringify(flows));
  writeFileSync(
    path.join(userDir, "settings.js"),
    `module.exports = { uiHost: "127.0.0.1", flowFile: "flows.json", logging: { console: { level: "warn" } }, editorTheme: { tours: false } };`,
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [bin, "--userDir", userDir, "--port", String(port), "--settings", path.join(userDir, "settings.js")],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_RED_ENABLE_PROJECTS: "false" },
    },
  );
  // Node-RED prints its URL once the flows are started.
  // Ready when the flow answers (its log level is warn, so there is no "started" line to wait for).
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node-red exited (${child.exitCode}) before it was ready`);
    const ok = await fetch(`http://127.0.0.1:${port}/w1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error("node-red did not answer within 60 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    name: `Node-RED ${NODE_RED_VERSION}`,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: stopper(child),
  };
}

/** Drives W2 (`POST /hooks/w2 {"n":41}`) at a Switchyard target with autocannon. */
export const driveW2 = (url: string, connections: number, seconds: number) =>
  autocannon({
    url: `${url}/hooks/w2`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"n":41}',
    connections,
    duration: seconds,
  });

/**
 * A data dir holding W2 and W1 and `stored` finished W2 runs, made by `checkout`'s own code (see
 * webhook-seed.ts); returns the flow ids by case.
 */
export function seedDataDir(checkout: string, dataDir: string, stored: number): Record<string, string> {
  const out = execFileSync(
    path.join(root, "node_modules/.bin/tsx"),
    [path.join(root, "bench/webhook-seed.ts"), checkout, dataDir, String(stored)],
    { cwd: checkout, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  return JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, string>;
}

/** Resident memory of a process and all its descendants in MB (Linux /proc): the whole tree counts. */
export function rssMb(pid: number): number {
  let kb = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return kb ? kb / 1024 : Number.NaN;
}

function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/PID/stat, after the parenthesised command name (which may hold spaces).
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  for (let queue = [pid]; queue.length; ) {
    const kids = children.get(queue.shift()!) ?? [];
    out.push(...kids);
    queue.push(...kids);
  }
  return out;
}
