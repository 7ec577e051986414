import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeCtx, items } from "../__tests__/fake-ctx";
import { startServer, type TestServer } from "../__tests__/http-server";
import { NodeError } from "../errors";
import { codeNode } from "./code";
import { executeNode } from "../__tests__/execute-node";

const run = (code: string, extra: Record<string, unknown> = {}, input = items({ a: 1 })) => {
  const ctx = fakeCtx();
  return {
    ctx,
    out: executeNode(codeNode, { config: { code, timeoutMs: 1000, memoryMb: 32, ...extra }, input, ctx }),
  };
};
const result = async (code: string) => {
  const r = await run(code).out;
  return "items" in r ? r.items.map((i) => i.json) : r;
};
const failure = async (code: string, extra: Record<string, unknown> = {}) =>
  (await run(code, extra).out.catch((e: unknown) => e)) as NodeError;

describe("code node", () => {
  it("maps items and keeps their order", async () => {
    const input = items({ price: 2, qty: 3 }, { price: 5, qty: 1 });
    const out = await run("return items.map((i) => ({ ...i, total: i.price * i.qty }))", {}, input).out;
    expect(out).toEqual({
      items: [{ json: { price: 2, qty: 3, total: 6 } }, { json: { price: 5, qty: 1, total: 5 } }],
    });
  });

  it("allows await and a single object result", async () => {
    expect(await result("const n = await Promise.resolve(items.length); return { n }")).toEqual([{ n: 1 }]);
  });

  it("sends console output to the run log", async () => {
    const { ctx, out } = run("console.log('seen', { a: 1 }); console.warn('careful'); return []");
    await out;
    expect(ctx.logs).toEqual([
      { level: "info", message: 'seen {"a":1}', data: undefined },
      { level: "warn", message: "careful", data: undefined },
    ]);
  });

  it("reports a thrown error with its line", async () => {
    const err = await failure("const a = 1;\nnull.x;");
    expect(err).toBeInstanceOf(NodeError);
    expect(err.code).toBe("sandbox_failed");
    expect(err.message).toBe("code threw TypeError: cannot read property 'x' of null (line 2, column 5)");
    expect(err.retryable).toBe(false);
  });

  it("refuses results that are not objects", async () => {
    const err = await failure("return [{ ok: 1 }, 2]");
    expect(err.message).toBe("code must return an object or an array of objects; element 1 is a number");
  });

  it("stops an infinite loop at the time limit", async () => {
    const err = await failure("while (true) {}", { timeoutMs: 300 });
    expect(err.code).toBe("timeout");
    expect(err.message).toBe("code ran longer than 300 ms");
  });

  it("stops at the time limit promise chains that run on after the code returned", async () => {
    // Endless async work after a result: the job queue runs into the deadline, so the step must not succeed (it used
    // to return the result late).
    const err = await failure(
      "async function g() { for (;;) { try { await null } catch (e) {} } } g(); g(); return [{ ok: 1 }]",
      { timeoutMs: 300 },
    );
    expect(err.code).toBe("timeout");
    expect(err.message).toBe("code ran longer than 300 ms");
  });

  it("ends a growing promise chain left running with a timeout or the memory limit, not a sandbox crash", async () => {
    // Each link waits for the next, so the chain grows until the deadline or the memory limit, whichever comes first
    // on this machine; disposing the VM with it alive used to abort QuickJS (an `internal` error).
    const err = await failure("const f = () => Promise.resolve().then(f, f); f(); return [{}]", {
      timeoutMs: 300,
    });
    expect(["code ran longer than 300 ms", "code used more than 32 MB of memory"]).toContain(err.message);
  });

  it("stops a memory bomb of repeated strings at the memory limit", async () => {
    const err = await failure("const a = []; while (true) a.push('x'.repeat(1e5));", { timeoutMs: 10_000 });
    expect(err.code).toBe("sandbox_failed");
    expect(err.message).toBe("code used more than 32 MB of memory");
  });

  it("stops a memory bomb of small objects at the memory limit", async () => {
    const err = await failure("const a = []; while (true) a.push({ a: 1, b: [1, 2, 3] });", {
      timeoutMs: 10_000,
    });
    expect(err.message).toBe("code used more than 32 MB of memory");
  });

  it("reports a thrown null as an error, not as memory", async () => {
    const err = await failure("throw null");
    expect(err.message).toBe("code threw the value null");
  });

  it("stops runaway recursion", async () => {
    const err = await failure("function f() { return f() + 1 } return f()");
    expect(err.message).toBe("code threw InternalError: stack overflow (line 1, column 24)");
  });

  it("stops when the run is cancelled", async () => {
    const ac = new AbortController();
    const pending = executeNode(codeNode, {
      config: { code: "while (true) {}" } as never,
      input: [],
      ctx: fakeCtx({ signal: ac.signal }),
    }).catch((e: unknown) => e);
    setTimeout(() => ac.abort(), 50);
    expect(await pending).toMatchObject({ code: "cancelled", message: "code run cancelled" });
  });

  it("rejects an empty program as config_invalid", async () => {
    const err = await failure("");
    expect(err.code).toBe("config_invalid");
    expect(err.message).toBe('node "n1" field "code": Too small: expected string to have >=1 characters');
  });
});

describe("code sandbox escapes", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer((_req, res) => res.end("export default 1"));
  });
  afterAll(() => server.close());

  const threw = (msg: string) => ({ code: "sandbox_failed", message: `code threw ${msg}` });

  const cases: [string, string, unknown][] = [
    [
      "Function constructor to process",
      "return this.constructor.constructor('return process')()",
      threw("ReferenceError: 'process' is not defined (line 1, column 54)"),
    ],
    [
      "array constructor chain",
      "return { r: [].constructor.constructor('return typeof process')() }",
      [{ r: "undefined" }],
    ],
    [
      "prototype walk to globalThis",
      "return { r: ({}).__proto__.constructor.constructor('return globalThis')().process ?? null }",
      [{ r: null }],
    ],
    ["require", "return require('fs')", threw("ReferenceError: 'require' is not defined (line 1, column 8)")],
    [
      "dynamic import of fs",
      "return await import('fs')",
      threw("ReferenceError: could not load module 'fs'"),
    ],
    [
      "dynamic import over the network",
      "return await import('NET')",
      threw("ReferenceError: could not load module 'NET'"),
    ],
    [
      "Error.prepareStackTrace (vm2 CVE-2022-36067 style)",
      "Error.prepareStackTrace = (e, cs) => cs[0].getThis().constructor.constructor('return process')(); return { s: typeof new Error().stack }",
      [{ s: "string" }],
    ],
    [
      "Proxy trap handing out Function (vm2 CVE-2023-37466 style)",
      "const p = new Proxy({}, { get: (t, k) => (k === 'constructor' ? Function : undefined) }); return { r: p.constructor('return typeof process')() }",
      [{ r: "undefined" }],
    ],
    [
      "Symbol.species on Array",
      "class X extends Array { static get [Symbol.species]() { return function () { return { p: typeof process }; }; } } return { r: new X(1, 2).map((x) => x).p }",
      [{ r: "undefined" }],
    ],
    [
      "Symbol.species on Promise (vm2 CVE-2023-30547 style)",
      "class P extends Promise { static get [Symbol.species]() { return Promise } } return { r: await P.resolve(1).then(() => typeof process) }",
      [{ r: "undefined" }],
    ],
    [
      "console function's constructor",
      "return { r: console.log.constructor('return typeof require + typeof process + typeof __log')() }",
      [{ r: "undefinedundefinedundefined" }],
    ],
    ["new Function this", "return { r: typeof new Function('return this')().process }", [{ r: "undefined" }]],
    ["eval", "return eval('process')", threw("ReferenceError: 'process' is not defined (line 1, column 12)")],
    ["fetch", "return fetch('NET')", threw("ReferenceError: 'fetch' is not defined (line 1, column 8)")],
    [
      "host-only globals",
      "return { r: [typeof WebAssembly, typeof setTimeout, typeof std, typeof os, typeof scriptArgs, typeof module, typeof Buffer].join() }",
      [{ r: "undefined,undefined,undefined,undefined,undefined,undefined,undefined" }],
    ],
    [
      "function.caller walk",
      "function f() { return f.caller } return { r: String(f()) }",
      [{ r: "undefined" }],
    ],
    [
      "stack trace leaks no host paths",
      "try { null.x } catch (e) { return { hostPath: /node_modules|worker|\\/work\\//.test(e.stack) } }",
      [{ hostPath: false }],
    ],
  ];

  it.each(cases)("%s", async (_name, code, expected) => {
    const src = code.replaceAll("NET", `${server.url}/evil.js`);
    const out = await run(src).out.then(
      (r) => ("items" in r ? r.items.map((i) => i.json) : r),
      (e: NodeError) => ({ code: e.code, message: e.message.replaceAll(`${server.url}/evil.js`, "NET") }),
    );
    expect(out).toEqual(expected);
  });

  it("exposes only standard globals plus items and console", async () => {
    const [out] = (await result("return { g: Object.getOwnPropertyNames(globalThis) }")) as [{ g: string[] }];
    for (const name of [
      "process",
      "require",
      "module",
      "fetch",
      "__log",
      "__input",
      "WebAssembly",
      "setTimeout",
    ]) {
      expect(out.g).not.toContain(name);
    }
    expect(out.g).toContain("items");
    expect(out.g).toContain("console");
  });

  it("cannot pollute the host's prototypes", async () => {
    await result("Object.prototype.polluted = 1; Array.prototype.x = 2; return [{}]");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).x).toBeUndefined();
  });

  it("leaves the host alive, the network untouched, and still runs code", async () => {
    expect(server.requests).toHaveLength(0);
    expect(process.exitCode).toBeUndefined();
    expect(await result("return { ok: true }")).toEqual([{ ok: true }]);
  });
});
