import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../../bin/switchyard.mjs");
const examples = path.resolve(import.meta.dirname, "../../../../examples/flows");
const execFileP = promisify(execFile);

let dir: string;
let env: NodeJS.ProcessEnv;
let worker: ChildProcess | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-cli-e2e-"));
  env = {
    ...process.env,
    SWITCHYARD_DATA_DIR: dir,
    SWITCHYARD_SMTP_PORT: "0",
    LOG_LEVEL: "silent",
    PORT: "0",
    SWITCHYARD_URL: "",
    SWITCHYARD_API_KEY: "",
  };
});
afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker!.once("exit", r));
    worker.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the real CLI binary; resolves with its exit code and output (never rejects on exit code). */
function cli(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

/** Starts `switchyard worker` and resolves with the address it prints once it listens. */
function startWorker(): Promise<string> {
  return new Promise((resolve, reject) => {
    worker = spawn(process.execPath, [bin, "worker"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    worker.stdout!.on("data", (d) => {
      out += d;
      const m = out.match(/listening on ([\d.]+:\d+)/);
      if (m) resolve(`http://${m[1]}`);
    });
    worker.stderr!.on("data", (d) => {
      out += d;
    });
    worker.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${out}`)));
  });
}

describe("switchyard CLI end to end", () => {
  it("sets up, imports the examples, serves a webhook and reports the run through the API", async () => {
    const owner = await cli(
      ["user", "create", "--owner", "--email", "owner@example.com", "--password-stdin"],
      "a strong password 1\n",
    );
    expect(owner).toMatchObject({ code: 0, stdout: "created owner owner@example.com\n" });

    const key = await cli(["apikey", "create", "--name", "e2e", "--scope", "read,write", "--json"]);
    expect(key.code).toBe(0);
    const created = JSON.parse(key.stdout);
    expect(created).toMatchObject({
      name: "e2e",
      scopes: ["read", "write"],
      user: "owner@example.com",
      role: "owner",
      key: expect.stringMatching(/^sy_/),
    });

    const imported = await cli(["flow", "import", examples, "--json"]);
    expect(imported.code).toBe(0);
    const flows = JSON.parse(imported.stdout) as { flow: { id: string; name: string; active: boolean } }[];
    expect(flows.map((f) => f.flow.name).sort()).toEqual([
      "Hello webhook",
      "Order triage",
      "Support inbox",
      "Weekday digest",
    ]);
    const hello = flows.find((f) => f.flow.name === "Hello webhook")!.flow.id;

    const url = await startWorker();
    const remote = ["--url", url, "--api-key", created.key];

    // The worker holds the data dir: local mode says so, names the pid and points at --url.
    const locked = await cli(["flow", "list"]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(`in use by another Switchyard process (pid ${worker!.pid})`);
    expect(locked.stderr).toContain("--url");

    const activated = await cli(["flow", "activate", hello, ...remote, "--json"]);
    expect(activated.code).toBe(0);
    expect(JSON.parse(activated.stdout)).toMatchObject({ id: hello, active: true });

    const { stdout: reply } = await execFileP("curl", [
      "-sS",
      "-X",
      "POST",
      "-H",
      "content-type: application/json",
      "-d",
      '{"name":"Ada"}',
      `${url}/hooks/examples/hello`,
    ]);
    expect(JSON.parse(reply)).toEqual({ greeting: "Hello, Ada" });

    const list = await cli(["run", "list", "--flow", hello, "--json", ...remote]);
    expect(list.code).toBe(0);
    const { runs, nextCursor } = JSON.parse(list.stdout);
    expect(nextCursor).toBeNull();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      flowId: hello,
      status: "succeeded",
      channel: "webhook",
      flowName: "Hello webhook",
    });

    const show = await cli(["run", "show", runs[0].id, "--json", ...remote]);
    expect(show.code).toBe(0);
    const run = JSON.parse(show.stdout);
    expect(run.steps.map((s: { nodeId: string; status: string }) => [s.nodeId, s.status])).toEqual([
      ["webhook", "succeeded"],
      ["greet", "succeeded"],
      ["respond", "succeeded"],
    ]);
    expect(run.payload.body).toEqual({ name: "Ada" });
  }, 60_000);
});
