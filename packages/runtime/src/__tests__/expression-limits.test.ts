/**
 * Issue #18, acceptance 2, through a real server: a sync webhook flow whose expression applies a
 * catastrophic regex to its input, or doubles a string, fails that run with `expression_limit` naming
 * the node — inline, on the main thread — while another webhook posted meanwhile is answered, and the
 * process grows by less than the stated bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activateFlows, postHook, runOutcome, setFieldFlow, startTestHost } from "./test-host";

/** What one bad request may add to the process's resident memory. */
const RSS_BOUND_MB = 200;

describe("an expression that would stall or bloat the server", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeAll(async () => {
    t = await startTestHost();
    const flows = {
      // V8's backtracking engine needs 2^n steps for `^(a+)+$` on n a's and a "!".
      regex: setFieldFlow("regex", "=$contains(item.body.s, /^(a+)+$/)"),
      grow: setFieldFlow(
        "grow",
        "=($f := function($s, $n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $f(item.body.s, 40))",
      ),
      ok: setFieldFlow("ok", "=item.body.n + 1"),
    };
    await activateFlows(t.host, flows);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (hookPath: string, body: unknown) => postHook(t.url, hookPath, body);
  const run = (runId: string) => runOutcome(t.host, runId);

  /** Sends the bad request, then a good one without waiting; both must be answered. */
  async function badThenGood(path: string, body: unknown) {
    const rssBefore = process.memoryUsage().rss;
    const bad = post(path, body);
    const good = post("ok", { n: 41 });
    const [badRes, goodRes] = await Promise.all([bad, good]);
    expect(goodRes.status).toBe(200);
    expect(await goodRes.json()).toEqual({ v: 42 });
    expect(badRes.status).toBe(500);
    const growthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    expect(growthMb).toBeLessThan(RSS_BOUND_MB);
    return run(badRes.headers.get("x-switchyard-run-id")!);
  }

  it("fails a catastrophic regex over a long input with expression_limit while another webhook is answered", async () => {
    const row = await badThenGood("regex", { s: `${"a".repeat(1_200_000)}!` });
    expect(row).toEqual({
      status: "failed",
      errorCode: "expression_limit",
      errorNodeId: "set",
      errorMessage:
        'node "set" field "fields.0.value" at position 11: regex applied to a string of 1200001 characters, longer than 1000000 (maxRegexInputLength)',
    });
  });

  it("answers the same catastrophic regex on a short input at once, without backtracking", async () => {
    const res = await post("regex", { s: `${"a".repeat(40)}!` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ v: false });
  });

  it("fails string doubling with expression_limit while another webhook is answered", async () => {
    const row = await badThenGood("grow", { s: "ab" });
    expect(row).toMatchObject({ status: "failed", errorCode: "expression_limit", errorNodeId: "set" });
    expect((row as { errorMessage: string }).errorMessage).toMatch(
      /^node "set" field "fields\.0\.value" at position \d+: string of 16777216 characters is longer than 10000000 \(maxStringLength\)$/,
    );
  });
});
