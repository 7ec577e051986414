/**
 * Red-team regressions for #18, through a real server: JSONata's own $spread took a built-in's function
 * object apart and handed out its host implementation, and $eval's implementation called on a forged
 * `this.environment` evaluated outside every bound (no step count, timeout or depth), so one webhook
 * could stall the process. A sync webhook run must fail fast while another webhook is answered.
 * And sync webhook runs of a flow with a code node run inside the request: callers posting together must
 * not start a sandbox thread each.
 */
import { readFileSync } from "node:fs";
import net from "node:net";
import { validateFlow } from "@switchyard/engine";
import { MAX_CONCURRENT_SANDBOXES, registry, sandboxStats } from "@switchyard/nodes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activateFlows, postHook, runOutcome, setFieldFlow, sqliteOf, startTestHost } from "./test-host";

/** $eval's host implementation, called on an object whose `environment` carries none of the evaluator's hooks. */
const forgedEval =
  `=( $n := item.body.n; $ev := $spread([$eval]).implementation; $lk := $spread([$lookup]).implementation;` +
  ` {"environment": {"lookup": $lk, "base": {"depth": 0, "guardrails": $lk}, "global": {"ancestry": [null]}}}` +
  `.$ev("($f := function($n){ $n = 0 ? 'done' : $f($n - 1) }; $f($))", $n) )`;

describe("a built-in's host implementation never reaches an expression (red team, #18)", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeAll(async () => {
    t = await startTestHost();
    const flows = {
      impl: setFieldFlow("impl", "=$type($spread([$string]).implementation)"),
      loop: setFieldFlow("loop", forgedEval),
      ok: setFieldFlow("ok", "=item.body.n + 1"),
    };
    await activateFlows(t.host, flows);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (hookPath: string, body: unknown) => postHook(t.url, hookPath, body);
  const run = (runId: string) => runOutcome(t.host, runId);

  it("gives $spread of an array holding $string no implementation to return", async () => {
    const res = await post("impl", {});
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ v: null });
  });

  it("fails a two-million-step loop through $eval's implementation on a forged environment before it starts, while another webhook is answered", async () => {
    const bad = post("loop", { n: 2_000_000 });
    const good = await post("ok", { n: 41 });
    expect(await good.json()).toEqual({ v: 42 });
    const badRes = await bad;
    expect(badRes.status).toBe(500);
    expect(run(badRes.headers.get("x-switchyard-run-id")!)).toEqual({
      status: "failed",
      errorCode: "expression_failed",
      errorNodeId: "set",
      // No implementation was there to invoke: not one step of the loop ran.
      errorMessage: expect.stringContaining("Attempted to invoke a non-function"),
    });
  }, 30_000);
});

describe("code sandboxes under a burst of sync webhooks (red team, #18)", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeAll(async () => {
    t = await startTestHost();
    const definition = {
      nodes: [
        { id: "hook", type: "trigger.webhook", config: { path: "code", responseMode: "sync" } },
        {
          id: "code",
          type: "code",
          config: { code: "const t = Date.now(); while (Date.now() - t < 300) {} return items;" },
        },
      ],
      edges: [{ from: { node: "hook", port: "main" }, to: { node: "code", port: "main" } }],
    };
    const { id } = await t.host.flows.create({ name: "code", definition });
    await t.host.control.setActive(id, true);
  });
  afterAll(async () => {
    await t.close();
  });

  it("runs at most MAX_CONCURRENT_SANDBOXES code sandboxes at once however many webhooks arrive together, and answers them all", async () => {
    const burst = MAX_CONCURRENT_SANDBOXES + 10;
    const answers = await Promise.all(
      Array.from({ length: burst }, () =>
        fetch(`${t.url}/hooks/code`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(burst).fill(200));
    // Counted by the limiter itself: sampling the process's threads could miss the peak, or count libuv's.
    expect(sandboxStats().peak).toBeLessThanOrEqual(MAX_CONCURRENT_SANDBOXES);
  }, 60_000);
});

const answerFlow = (path: string, respond: Record<string, unknown>) => ({
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path, methods: ["GET"], responseMode: "sync" } },
    { id: "respond", type: "webhook.respond", config: respond },
  ],
  edges: [{ from: { node: "hook", port: "main" }, to: { node: "respond", port: "main" } }],
});

/** The status line and headers of the first answer on a raw connection that sends two requests. */
async function firstAnswer(url: string, path: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /hooks/none HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      ),
    );
    let buf = "";
    socket.on("data", (d) => {
      buf += d.toString();
      if (buf.includes("\r\n\r\n")) {
        socket.destroy();
        resolve(buf.slice(0, buf.indexOf("\r\n\r\n")));
      }
    });
    socket.on("error", reject);
  });
}

describe("webhook answers keep the connection and the origin the server's (red team, #18)", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeAll(async () => {
    t = await startTestHost();
    const flows = {
      status: answerFlow("status", { status: "=$number(trigger.query.s)", body: "ok" }),
      headers: answerFlow("headers", {
        headers: `={"NEL": '{"report_to":"x","max_age":31536000,"success_fraction":1}', "Report-To": '{"group":"x","max_age":31536000,"endpoints":[{"url":"https://evil.example/r"}]}', "Reporting-Endpoints": 'x="https://evil.example/r"', "Upgrade": "websocket", "X-Ok": "1"}`,
        body: "ok",
      }),
    };
    await activateFlows(t.host, flows);
  });
  afterAll(async () => {
    await t.close();
  });

  it("refuses a respond node with an informational status or reporting and upgrade headers at save, naming node and field", () => {
    const definition = answerFlow("x", {
      status: 101,
      headers: { NEL: "{}", "Report-To": "{}", Upgrade: "websocket" },
      body: "ok",
    });
    expect(validateFlow(definition, registry).map((p) => `${p.nodeId} ${p.field}: ${p.message}`)).toEqual([
      expect.stringMatching(/^respond status: .*a webhook answer's status must be 200–599/),
      expect.stringMatching(/^respond headers\.NEL: .*a flow cannot set the NEL header/),
      expect.stringMatching(/^respond headers\.Report-To: .*a flow cannot set the Report-To header/),
      expect.stringMatching(/^respond headers\.Upgrade: .*a flow cannot set the Upgrade header/),
    ]);
  });

  for (const s of [100, 101, 103]) {
    it(`never answers with the interim status ${s} a request chose through a status expression`, async () => {
      expect(await firstAnswer(t.url, `/hooks/status?s=${s}`)).toMatch(/^HTTP\/1\.1 500 /);
    });
  }

  it("fails a run whose answer sets reporting-policy or upgrade headers through an expression, and sends none of them", async () => {
    const res = await fetch(`${t.url}/hooks/headers`);
    expect(res.status).toBe(500);
    for (const name of ["nel", "report-to", "reporting-endpoints", "upgrade"])
      expect(res.headers.get(name), name).toBeNull();
    const row = sqliteOf(t.host)
      .prepare(`SELECT status, errorNodeId, errorMessage FROM "Run" WHERE id = ?`)
      .get(res.headers.get("x-switchyard-run-id")) as {
      status: string;
      errorNodeId: string;
      errorMessage: string;
    };
    expect(row).toMatchObject({ status: "failed", errorNodeId: "respond" });
    expect(row.errorMessage).toContain("a flow cannot set the NEL header");
  });
});

/** Resident memory of this process, in MB. */
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024;

describe("a small request fanned out into many items (red team, #18)", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeAll(async () => {
    t = await startTestHost();
    // Each item of the split carries the whole request body: items × body is quadratic in the request.
    const definition = {
      nodes: [
        { id: "hook", type: "trigger.webhook", config: { path: "fan", responseMode: "sync" } },
        { id: "split", type: "flow.split", config: { path: "body.list" } },
        {
          id: "set",
          type: "data.set",
          config: { fields: [{ name: "request", value: "=trigger.body" }], keepOnlySet: true },
        },
        { id: "respond", type: "webhook.respond", config: { status: 200, body: "={'n': $count(items)}" } },
      ],
      edges: [
        { from: { node: "hook", port: "main" }, to: { node: "split", port: "main" } },
        { from: { node: "split", port: "main" }, to: { node: "set", port: "main" } },
        { from: { node: "set", port: "main" }, to: { node: "respond", port: "main" } },
      ],
    };
    const { id } = await t.host.flows.create({ name: "fan", definition });
    await t.host.control.setActive(id, true);
  });
  afterAll(async () => {
    await t.close();
  });

  it("records a run whose 1 500 items each repeat a 600 kB request body (900 MB as one text) without building that text: RSS grows by less than 200 MB", async () => {
    const before = rssMb();
    let most = before;
    const sample = setInterval(() => {
      most = Math.max(most, rssMb());
    }, 10);
    const list = Array.from({ length: 1500 }, () => ({ c: "x".repeat(390) }));
    const res = await fetch(`${t.url}/hooks/fan`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ list }),
    });
    clearInterval(sample);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 1500 });
    expect(most - before).toBeLessThan(200);
    const step = sqliteOf(t.host)
      .prepare(`SELECT output FROM "Step" WHERE runId = ? AND nodeId = 'set'`)
      .get(res.headers.get("x-switchyard-run-id")) as { output: string } | undefined;
    expect(JSON.parse(step?.output ?? "null")).toMatchObject({ __truncated: true, atLeast: true });
  }, 60_000);
});
