import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestHost } from "./test-host";

// #18 acceptance 1: an ordinary-looking respond expression must never reach a host function through
// request data. The chain: a query key named like an Object.prototype member used to land the inherited
// function in the payload; JSONata calls functions it finds in data and wraps lambdas in async closures,
// whose constructor (AsyncFunction) compiles a string.
const exploit = (marker: string, field: "query" | "body") =>
  `=(
    $O := trigger.${field}.constructor[0];
    $g := trigger.${field}.__lookupGetter__[0];
    $getProto := $g("__proto__");
    $closure := $O(function(){1});
    $proto := $closure.$getProto();
    $AF := $lookup($proto, "constructor");
    $run := $AF('process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(marker)}, "pwned")');
    $run();
    { "seen": trigger.${field} }
  )`;

const hookFlow = (p: string, body: string, bodyType = "json", methods = ["GET", "POST"]) => ({
  nodes: [
    { id: "hook", type: "trigger.webhook", config: { path: p, responseMode: "sync", methods, bodyType } },
    { id: "respond", type: "webhook.respond", config: { status: 200, body } },
  ],
  edges: [{ from: { node: "hook", port: "main" }, to: { node: "respond", port: "main" } }],
});

describe("request data reaching an expression (#18 acceptance 1)", () => {
  let t: Awaited<ReturnType<typeof startTestHost>>;
  beforeEach(async () => {
    t = await startTestHost();
  });
  afterEach(async () => {
    await t.close();
  });
  const activate = async (definition: unknown) => {
    const { id } = await t.host.flows.create({ name: "Hook", definition });
    await t.host.control.setActive(id, true);
  };

  it("shows query parameters named constructor and __lookupGetter__ as the strings they are", async () => {
    await activate(
      hookFlow(
        "echo",
        '={ "q": trigger.query, "types": $map($keys(trigger.query), function($k){ $type($lookup(trigger.query, $k)) }) }',
      ),
    );
    const res = await fetch(`${t.url}/hooks/echo?constructor=1&__lookupGetter__=1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      q: { constructor: "1", __lookupGetter__: "1" },
      types: ["string", "string"],
    });
  });

  it("runs nothing on the host when a respond expression walks from a query parameter to the AsyncFunction constructor", async () => {
    const marker = path.join(t.dir, "pwned-by-query");
    await activate(hookFlow("rce", exploit(marker, "query")));
    const res = await fetch(`${t.url}/hooks/rce?constructor=1&__lookupGetter__=1`);
    expect(existsSync(marker)).toBe(false);
    // The chain breaks at its first call: a string is not a function.
    expect(res.status).toBe(500);
    expect((await res.json()) as unknown).toMatchObject({ error: { code: "run_failed" } });
    // The server stays healthy: the next request is answered.
    await activate(hookFlow("ping", '={ "ok": true }'));
    expect(await (await fetch(`${t.url}/hooks/ping`)).json()).toEqual({ ok: true });
  });

  it("runs nothing on the host when the same names arrive in a form body", async () => {
    const marker = path.join(t.dir, "pwned-by-form");
    await activate(hookFlow("form-rce", exploit(marker, "body"), "form", ["POST"]));
    const res = await fetch(`${t.url}/hooks/form-rce`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "constructor=1&__lookupGetter__=1",
    });
    expect(existsSync(marker)).toBe(false);
    expect(res.status).toBe(500);
    await activate(hookFlow("form-echo", '={ "b": trigger.body }', "form", ["POST"]));
    const echo = await fetch(`${t.url}/hooks/form-echo`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "constructor=1&__lookupGetter__=1",
    });
    expect(await echo.json()).toEqual({ b: { constructor: "1", __lookupGetter__: "1" } });
  });
});
