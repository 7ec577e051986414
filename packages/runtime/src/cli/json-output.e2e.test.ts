/**
 * #19 acceptance 6: `--json` prints JSON alone on stdout, even at LOG_LEVEL=info where every local
 * command logs (migrations, seeding, agents); the log lines go to stderr.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const bin = path.resolve(import.meta.dirname, "../../bin/switchyard.mjs");
const examples = path.resolve(import.meta.dirname, "../../../../examples/flows");

let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-cli-json-"));
  env = {
    ...process.env,
    SWITCHYARD_DATA_DIR: dir,
    SWITCHYARD_SMTP_PORT: "0",
    LOG_LEVEL: "info",
    SWITCHYARD_URL: "",
    SWITCHYARD_API_KEY: "",
  };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command line (no shell unless asked); resolves with its exit code and output. */
function run(file: string, args: string[], stdin = ""): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
const cli = (args: string[], stdin?: string) => run(process.execPath, [bin, ...args], stdin);
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** Exit code 0 and a stdout that is one JSON document; returns it. */
function jsonOnly(r: Ran) {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("--json output on stdout", () => {
  it("is JSON alone for every command, with the log lines on stderr", async () => {
    const imported = await cli(["flow", "import", path.join(examples, "order-triage.json"), "--json"]);
    expect(imported.stderr).toContain('"msg":"database migrated"');
    expect(imported.stderr).toContain('"msg":"seeded the example flow"');
    const [detail] = jsonOnly(imported);
    expect(detail.flow.name).toBe("Order triage");

    const listed = await cli(["flow", "list", "--json"]);
    expect(listed.stderr).toContain('"msg":"agents loaded"');
    expect(jsonOnly(listed).flows).toHaveLength(2);

    // The documented pipe, exactly: a shell runs the real bin into python3 -m json.tool.
    const piped = await run("bash", [
      "-o",
      "pipefail",
      "-c",
      `${quote(process.execPath)} ${quote(bin)} flow list --json | python3 -m json.tool`,
    ]);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toContain('"msg":"agents loaded"');
    expect(
      JSON.parse(piped.stdout)
        .flows.map((f: { name: string }) => f.name)
        .sort(),
    ).toEqual(["Hello webhook (example)", "Order triage"]);

    const ran = jsonOnly(
      await cli(["flow", "run", detail.flow.id, "--payload", '{"total": 500}', "--wait", "--json"]),
    );
    expect(ran).toMatchObject({ status: "succeeded", payload: { total: 500 } });
    expect(jsonOnly(await cli(["run", "list", "--json"])).runs.map((r: { id: string }) => r.id)).toEqual([
      ran.id,
    ]);
    expect(jsonOnly(await cli(["run", "show", ran.id, "--json"])).id).toBe(ran.id);

    expect(
      jsonOnly(
        await cli(
          ["memory", "add", "--key", "parking", "--content-stdin", "--json"],
          "Visitors park behind the bakery.",
        ),
      ).key,
    ).toBe("parking");
    const found = jsonOnly(
      await cli(["memory", "search", "where do visitors park", "--mode", "lexical", "--json"]),
    );
    expect(found.hits[0].item.content).toBe("Visitors park behind the bakery.");

    expect(
      (
        await cli(
          ["user", "create", "--owner", "--email", "o@example.com", "--password-stdin"],
          "a strong password 1\n",
        )
      ).code,
    ).toBe(0);
    const key = await cli(["apikey", "create", "--name", "ci", "--json"]);
    expect(jsonOnly(key)).toMatchObject({ name: "ci", key: expect.stringMatching(/^sy_/) });
  }, 120_000);
});

describe("switchyard worker's output", () => {
  let worker: ChildProcess | undefined;
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((r) => worker!.once("exit", r));
      worker.kill("SIGTERM");
      await exited;
    }
  });

  it("prints only its ready line on stdout; its log lines go to stderr", async () => {
    const own = path.join(dir, "worker");
    worker = spawn(process.execPath, [bin, "worker"], {
      env: { ...env, SWITCHYARD_DATA_DIR: own, PORT: "0", HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    // The two pipes are read independently: wait until the ready line and the log line have both arrived.
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.endsWith("\n") && stderr.includes('"msg":"worker is up"')) resolve();
      };
      worker!.stdout!.on("data", (d) => {
        stdout += d;
        check();
      });
      worker!.stderr!.on("data", (d) => {
        stderr += d;
        check();
      });
      worker!.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${stdout}${stderr}`)));
    });
    expect(stdout).toMatch(/^Switchyard worker \S+ listening on 127\.0\.0\.1:\d+ \([^)]+\)\n$/);
    expect(stderr).toContain('"msg":"worker is up"');
  }, 60_000);

  it("prints all of a large output into a pipe its reader empties late", async () => {
    // 3 000 problems: ≈ 0.5 MB of JSON, far more than a pipe holds (64 KiB) until someone reads it.
    const file = path.join(dir, "wide.json");
    const nodes = Array.from({ length: 3000 }, (_, i) => ({ id: `n${i}`, type: "no.such.type" }));
    writeFileSync(file, JSON.stringify({ nodes }));
    const child = spawn(process.execPath, [bin, "flow", "validate", file, "--json"], {
      env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    child.stdout.pause();
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // Once the CLI has started writing, nothing more is read until it has exited (it used to, with the rest of its
    // output lost) or 3 s have passed. The fixed CLI waits for the reader, so the test passes whatever the timing;
    // the wait only gives a broken one time to show its exit (counted from its first output, not its start-up).
    await new Promise((resolve) => child.stdout.once("readable", resolve));
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stdout.resume();
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    const out = JSON.parse(stdout) as { files: { problems: unknown[] }[] };
    expect(out.files[0]!.problems.length).toBeGreaterThanOrEqual(3000);
  }, 60_000);
});
