import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ApiHost, startApiHost } from "../trpc/rest/__tests__/harness";
import { main } from "./main";

const examples = path.resolve(import.meta.dirname, "../../../../examples/flows");
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sy-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI in-process on the temp data dir; exit code and output. */
async function sy(args: string[], stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    args,
    { SWITCHYARD_DATA_DIR: path.join(dir, "data"), SWITCHYARD_SMTP_PORT: "0", LOG_LEVEL: "silent" },
    {
      stdin: Readable.from([stdin]),
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    },
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}
const json = (r: { out: string }) => JSON.parse(r.out);

function file(name: string, value: unknown): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
  return p;
}

describe("switchyard flow validate", () => {
  it("accepts every example flow with exit code 0", async () => {
    const r = await sy(["flow", "validate", examples]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n")).toHaveLength(4);
    for (const line of r.out.split("\n")) expect(line).toMatch(/\.json: valid$/);
  });

  it("lists every problem of an invalid file with its path and exits 1", async () => {
    const bad = file("bad.json", {
      nodes: [
        { id: "in", type: "trigger.manual" },
        { id: "check", type: "logic.if", config: { condition: "=item.total >" } },
        { id: "what", type: "no.such" },
      ],
      edges: [
        { from: { node: "in" }, to: { node: "check" } },
        { from: { node: "check", port: "maybe" }, to: { node: "what" } },
      ],
    });
    const r = await sy(["flow", "validate", bad]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}: 3 problems`);
    expect(r.err).toMatch(/^ {2}nodes\.1\.config\.condition: .*\[expression_invalid\]$/m);
    expect(r.err).toMatch(/^ {2}nodes\.2: unknown node type "no\.such" \[unknown_node_type\]$/m);
    expect(r.err).toMatch(/^ {2}edges\.1: node "check" has no output port "maybe" \[unknown_port\]$/m);

    const asJson = await sy(["flow", "validate", bad, path.join(examples, "order-triage.json"), "--json"]);
    expect(asJson.code).toBe(1);
    expect(json(asJson)).toEqual({
      valid: false,
      files: [
        {
          file: bad,
          valid: false,
          problems: expect.arrayContaining([
            expect.objectContaining({ path: "nodes.2", code: "unknown_node_type" }),
          ]),
        },
        { file: path.join(examples, "order-triage.json"), valid: true, problems: [] },
      ],
    });
  });

  it("works offline: it never opens or creates the data dir", async () => {
    expect((await sy(["flow", "validate", examples])).code).toBe(0);
    expect(existsSync(path.join(dir, "data"))).toBe(false);
  });

  it("reports a file that is not JSON or does not exist as invalid", async () => {
    const r = await sy([
      "flow",
      "validate",
      file("broken.json", "{ nodes: "),
      path.join(dir, "missing.json"),
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/broken\.json: 1 problem\n {2}\(flow\): not valid JSON/);
    expect(r.err).toMatch(/no such file/);
  });
});

describe("usage errors exit with code 2", () => {
  it.each([
    [["frobnicate"], "unknown command 'frobnicate'"],
    [["flow", "list", "--bogus"], "Unknown option '--bogus'"],
    [["flow", "run"], "flow run takes one flow id"],
    [["flow", "validate"], "name at least one flow file"],
    [["flow", "run", "x", "--payload", "{nope"], "--payload is not valid JSON"],
    [
      ["flow", "run", "x", "--payload", "@/nonexistent.json"],
      "--payload @/nonexistent.json: cannot read the file (ENOENT)",
    ],
    [["run", "list", "--api-key", "k"], "--api-key needs --url"],
    [["run", "list", "--url", "http://127.0.0.1:9"], "--url needs an API key"],
    [["apikey", "create"], "--name is required"],
    [["apikey", "create", "--name", "x", "--scope", "admin"], "unknown scope 'admin'"],
    [["memory", "add", "--key", "k"], "give the content with --content TEXT or --content-stdin"],
    [["start", "extra"], "unexpected argument 'extra'"],
  ])("switchyard %j", async (args, message) => {
    const r = await sy(args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it("prints the command's help with exit code 0", async () => {
    const r = await sy(["flow", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: switchyard flow/);
    expect((await sy(["--help"])).out).toMatch(/^switchyard \S+ — self-hosted flow automation/);
  });
});

describe("client commands on the local data dir", () => {
  it("imports, lists, exports, runs and re-runs flows, printing the API's JSON", async () => {
    // A fresh data dir is seeded on first use, as `switchyard start` would: the example flow is there.
    const first = await sy(["flow", "list"]);
    expect(first.out).toMatch(/^ID +ACTIVE +VERSION +NAME\n\S+ +yes +1 +Hello webhook \(example\)$/);
    const imported = await sy([
      "flow",
      "import",
      path.join(examples, "order-triage.json"),
      "--activate",
      "--json",
    ]);
    expect(imported.code).toBe(0);
    const [detail] = json(imported);
    expect(detail.flow).toMatchObject({ name: "Order triage", active: true, activeVersion: 1 });
    const id = detail.flow.id;

    expect(json(await sy(["flow", "list", "--json"])).flows.map((f: { id: string }) => f.id)).toContain(id);

    const exported = await sy(["flow", "export", id]);
    const reimport = file("exported.json", exported.out);
    expect((await sy(["flow", "validate", reimport])).code).toBe(0);
    const again = json(await sy(["flow", "import", reimport, "--json"]))[0];
    expect(again.flow.name).toBe("Order triage");
    expect(again.definition).toEqual(detail.definition);

    const ran = await sy(["flow", "run", id, "--payload", '{"total": 500}', "--wait", "--json"]);
    expect(ran.code).toBe(0);
    const run = json(ran);
    expect(run).toMatchObject({ status: "succeeded", channel: "api", payload: { total: 500 } });
    expect(run.steps.find((s: { nodeId: string }) => s.nodeId === "high").status).toBe("succeeded");

    const human = await sy(["run", "show", run.id]);
    expect(human.out).toMatch(/^run \S+ of flow \S+ "Order triage" \(version 1\): succeeded, api, /);
    expect(human.out).toMatch(/^high#1 +succeeded +main/m);

    const rerun = json(await sy(["run", "rerun", run.id, "--json"]));
    expect(rerun).toMatchObject({ rerunOf: run.id, status: "queued" });
    const listed = json(await sy(["run", "list", "--flow", id, "--json"]));
    expect(listed.runs.map((r: { id: string }) => r.id)).toEqual([rerun.runId, run.id]);
    expect(
      json(await sy(["run", "list", "--status", "succeeded", "--json"])).runs.map(
        (r: { id: string }) => r.id,
      ),
    ).toEqual([run.id]);

    // The next page's hint keeps the filters the cursor belongs to, and following it gives that page.
    const page = await sy(["run", "list", "--flow", id, "--limit", "1"]);
    const hint = page.out.split("\n").at(-1)!;
    expect(hint).toMatch(new RegExp(`^more: switchyard run list --flow ${id} --limit 1 --cursor \\S+$`));
    const next = await sy([...hint.slice("more: switchyard ".length).split(" "), "--json"]);
    expect(json(next).runs.map((r: { id: string }) => r.id)).toEqual([run.id]);
  });

  it("queues a run without --wait, and cancels it", async () => {
    const [detail] = json(await sy(["flow", "import", path.join(examples, "order-triage.json"), "--json"]));
    const queued = await sy(["flow", "run", detail.flow.id, "--json"]);
    expect(queued.code).toBe(0);
    const { runId, status } = json(queued);
    expect(status).toBe("queued");
    const cancelled = await sy(["run", "cancel", runId, "--json"]);
    expect(json(cancelled)).toEqual({ runId, result: "cancelled" });
    const again = await sy(["run", "cancel", runId]);
    expect(again.code).toBe(1);
    expect(again.err).toBe(`switchyard: run ${runId} already finished`);
  });

  it("exits 1 when a waited-for run fails, with the error shown", async () => {
    const failing = file("fail.json", {
      name: "Fails",
      nodes: [
        { id: "start", type: "trigger.manual" },
        { id: "stop", type: "flow.stop", config: { outcome: "error", message: "no customer" } },
      ],
      edges: [{ from: { node: "start" }, to: { node: "stop" } }],
    });
    const [detail] = json(await sy(["flow", "import", failing, "--json"]));
    const r = await sy(["flow", "run", detail.flow.id, "--wait"]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/: failed, api/);
    expect(r.out).toContain("no customer");
  });

  it("refuses to import an invalid file and imports nothing from its folder", async () => {
    const folder = path.join(dir, "flows");
    mkdirSync(folder);
    writeFileSync(path.join(folder, "a.json"), readFileSync(path.join(examples, "order-triage.json")));
    writeFileSync(path.join(folder, "b.json"), JSON.stringify({ nodes: [{ id: "x", type: "data.set" }] }));
    const r = await sy(["flow", "import", folder]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("b.json: 2 problems; nothing imported");
    expect(r.err).toMatch(/^ {2}nodes\.0\.config\.fields: .*\[config_invalid\]$/m);
    expect(r.err).toContain("(flow): the flow has no trigger node [no_trigger]");
    expect(json(await sy(["flow", "list", "--json"])).flows.map((f: { name: string }) => f.name)).toEqual([
      "Hello webhook (example)",
    ]);
  });

  it("adds, imports and searches memory", async () => {
    const added = await sy(
      ["memory", "add", "--key", "wifi", "--content-stdin", "--tag", "office", "--json"],
      "The wifi password is on the fridge.",
    );
    expect(added.code).toBe(0);
    expect(json(added)).toMatchObject({ key: "wifi", tags: ["office"], namespace: "global" });
    const notes = path.join(dir, "notes");
    mkdirSync(notes);
    writeFileSync(path.join(notes, "parking.md"), "# Parking\n\nVisitors park behind the bakery.\n");
    const imported = await sy(["memory", "import", notes, "--json"]);
    expect(imported.code).toBe(0);
    expect(json(imported)).toMatchObject({ files: 1, skipped: [] });
    expect(json(imported).added).toBeGreaterThan(0);
    const found = json(
      await sy(["memory", "search", "where do visitors park", "--mode", "lexical", "--json"]),
    );
    expect(found.hits[0].item.content).toContain("bakery");
  });

  it("creates an API key only once an owner exists", async () => {
    const none = await sy(["apikey", "create", "--name", "ci"]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("there is no owner yet");
    await sy(
      ["user", "create", "--owner", "--email", "o@example.com", "--password-stdin"],
      "a strong password 1\n",
    );
    const r = await sy(["apikey", "create", "--name", "ci", "--scope", "read"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^sy_[0-9a-f]{8}_\S{43}$/);
    expect(r.err).toContain('created API key "ci" (read) acting as owner o@example.com');
  });
});

describe("client commands against a server (--url)", () => {
  let t: ApiHost;
  beforeAll(async () => {
    t = await startApiHost();
  });
  afterAll(async () => {
    await t.close();
  });

  it("imports and runs a flow through the REST API with the same JSON as local mode", async () => {
    const remote = ["--url", t.url, "--api-key", t.keys.owner];
    const [detail] = json(
      await sy(["flow", "import", path.join(examples, "order-triage.json"), "--json", ...remote]),
    );
    expect(await t.host.flows.get(detail.flow.id)).not.toBeNull();
    const run = await sy([
      "flow",
      "run",
      detail.flow.id,
      "--payload",
      '{"total": 3}',
      "--wait",
      "--json",
      ...remote,
    ]);
    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ status: "succeeded", payload: { total: 3 } });
    // Nothing was written to the local data dir.
    expect(
      json(await sy(["flow", "list", "--json"])).flows.map((f: { name: string }) => f.name),
    ).not.toContain("Order triage");
  });

  it("refuses apikey create and user create with SWITCHYARD_URL set, writing no data dir", async () => {
    const elsewhere = path.join(dir, "not-created");
    const env = {
      SWITCHYARD_DATA_DIR: elsewhere,
      SWITCHYARD_SMTP_PORT: "0",
      LOG_LEVEL: "silent",
      SWITCHYARD_URL: "http://127.0.0.1:1",
      SWITCHYARD_API_KEY: "sy_key",
    };
    for (const [args, what] of [
      [["apikey", "create", "--name", "ci"], "apikey create"],
      [["user", "create", "--owner", "--email", "a@example.com", "--password-stdin"], "user create"],
    ] as const) {
      const err: string[] = [];
      const code = await main([...args], env, {
        stdin: Readable.from(["pw-Long-enough-123\n"]),
        out: () => {},
        err: (l) => err.push(l),
      });
      expect(code).toBe(1);
      expect(err.join("\n")).toContain(`${what} works on the local data dir only`);
    }
    expect(existsSync(elsewhere)).toBe(false);
  });

  it("reports the server's refusals and unreachable servers with exit code 1", async () => {
    const viewer = await sy([
      "flow",
      "import",
      path.join(examples, "order-triage.json"),
      "--url",
      t.url,
      "--api-key",
      t.keys.viewer,
    ]);
    expect(viewer).toMatchObject({ code: 1, err: "switchyard: only owners and editors can do this" });
    const wrongKey = await sy(["flow", "list", "--url", t.url, "--api-key", "sy_nope"]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.err).toContain("send a valid API key");
    const down = await sy(["flow", "list", "--url", "http://127.0.0.1:1", "--api-key", "k"]);
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/^switchyard: cannot reach the server at http:\/\/127\.0\.0\.1:1/);
    const local = await sy(["memory", "import", dir, "--url", t.url, "--api-key", t.keys.owner]);
    expect(local.code).toBe(1);
    expect(local.err).toContain("memory import works on the local data dir only");
  });
});
