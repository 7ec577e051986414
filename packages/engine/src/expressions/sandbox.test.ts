/**
 * The expression scope holds no host function: a scope that really contains JS functions (as a webhook
 * query did when ingress read inherited `Object.prototype` members) gives an expression nothing to call.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExpressionEvaluator } from "./evaluator";

const ev = createExpressionEvaluator({ timeoutMs: 500 });
let calls = 0;
const g = globalThis as { __pwned?: number };

afterEach(() => {
  calls = 0;
  delete g.__pwned;
});

/** What the vulnerable query parser built for `?name=Ada&constructor=1&__lookupGetter__=1`. */
function ingressQuery(): Record<string, unknown> {
  const query: Record<string, unknown> = { name: "Ada" };
  for (const k of ["constructor", "__lookupGetter__", "__defineGetter__", "valueOf", "hasOwnProperty"]) {
    // biome-ignore lint/correctness/noSelfAssign: the vulnerable parser's read-then-write, on purpose
    query[k] = query[k];
  }
  return query;
}

/** That query plus functions of every kind. */
function hostileScope() {
  const query = ingressQuery();
  query.hit = () => {
    calls++;
    return "called";
  };
  query.Function = Function;
  // biome-ignore lint/suspicious/noThenProperty: a thenable in data is one of the attacks
  query.then = (resolve: (v: unknown) => void) => {
    calls++;
    resolve("thenable");
  };
  const body = {
    toJSON: () => {
      calls++;
      return "json";
    },
    toString: () => {
      calls++;
      return "str";
    },
    list: [1, () => calls++, { f: () => calls++ }],
  };
  Object.defineProperty(body, "getter", {
    enumerable: true,
    get: () => {
      calls++;
      return "got";
    },
  });
  const trigger = { query, body };
  return { trigger, item: trigger, items: [trigger], nodes: {}, run: { id: "r" } };
}

async function outcome(src: string): Promise<unknown> {
  try {
    return { value: await ev.evaluate(src, hostileScope()) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe("the expression sandbox", () => {
  it("does not run the RCE chain of issue #18 through Object, __lookupGetter__ and AsyncFunction", async () => {
    const chain = `(
      $o := trigger.query.constructor;
      $g := trigger.query.__lookupGetter__;
      $p := $g("__proto__");
      $f := $o(function(){ 1 });
      $AF := $f.$p().constructor;
      $AF("globalThis.__pwned = 1; return 42")()
    )`;
    const query = ingressQuery();
    const out = await ev.evaluate(chain, { trigger: { query } }).catch((e: Error) => ({ error: e.message }));
    expect(g.__pwned).toBeUndefined();
    expect(out).toEqual({ error: "Attempted to invoke a non-function" });
  });

  it("hands no function found in data to a call, a higher-order built-in or the caller", async () => {
    for (const src of [
      "trigger.query.hit()",
      "$x := trigger.query.hit; $x()",
      '$lookup(trigger.query, "hit")()',
      "$map([1, 2], trigger.query.hit)",
      "$each(trigger.query, function($v){ $type($v) = 'function' ? $v() : 0 })",
      "$sift(trigger.query, function($v){ $v() })",
      "$filter([1], trigger.query.hit)",
      "$reduce([1, 2], trigger.query.hit)",
      "$sort([2, 1], trigger.query.hit)",
      "trigger.body.list[1]()",
      "trigger.body.list[2].f()",
      'trigger.query.Function("globalThis.__pwned = 1")()',
      'trigger.query.constructor.constructor("globalThis.__pwned = 1")()',
      'trigger.query.__lookupGetter__("__proto__")()',
      'trigger.query.__defineGetter__("x", function(){ 1 })',
      "trigger.query.valueOf()",
      "trigger.query.hasOwnProperty('name')",
    ]) {
      await outcome(src);
      expect(calls, src).toBe(0);
      expect(g.__pwned, src).toBeUndefined();
    }
  });

  it("never invokes getters, then, toJSON or toString of data, and returns no function", async () => {
    expect(await outcome("trigger.body.getter")).toEqual({ value: undefined });
    expect(await outcome("trigger.query")).toEqual({ value: { name: "Ada" } });
    expect(await outcome("$string(trigger.body)")).toEqual({ value: '{"list":[1,null,{}]}' });
    expect(await outcome('"x" & trigger.body')).toEqual({ value: 'x{"list":[1,null,{}]}' });
    expect(await outcome("$keys(trigger.query)")).toEqual({ value: "name" });
    expect(await outcome("trigger.query.hit")).toEqual({ value: undefined });
    expect(await outcome("[trigger.query.constructor, trigger.query.then]")).toEqual({ value: [] });
    expect(calls).toBe(0);
  });

  it("reads simple paths on the unchecked scope only through own enumerable data properties", async () => {
    class Reading {
      n = 4;
    }
    const body: Record<string, unknown> = { n: 41, reading: new Reading(), when: new Date(0) };
    Object.defineProperty(body, "secret", {
      enumerable: true,
      get: () => {
        calls++;
        return 7;
      },
    });
    Object.defineProperty(body, "hidden", { enumerable: false, value: 9 });
    const scope = { trigger: { body } };
    expect(await ev.evaluate("trigger.body.n + 1", scope)).toBe(42);
    expect(await ev.evaluate("trigger.body.secret", scope)).toBeUndefined();
    expect(await ev.evaluate("trigger.body.secret + 1", scope)).toBeUndefined();
    expect(await ev.evaluate("trigger.body.hidden", scope)).toBeUndefined();
    // What plainScope makes of them: the instance's own fields, the date's ISO text.
    expect(await ev.evaluate("trigger.body.reading.n * 2", scope)).toBe(8);
    expect(await ev.evaluate("trigger.body.reading", scope)).toEqual({ n: 4 });
    expect(await ev.evaluate("trigger.body.when", scope)).toBe("1970-01-01T00:00:00.000Z");
    expect(calls).toBe(0);
    // A path around a cycle gets what the plain scope holds there: the cycle cut where it closes.
    const loop: Record<string, unknown> = { n: 1 };
    loop.self = loop;
    expect(await ev.evaluate("item.self.n", { item: loop })).toBeUndefined();
    expect(await ev.evaluate("item.n", { item: loop })).toBe(1);
  });

  it("keeps prototype-named keys that data really owns as ordinary data", async () => {
    const payload = JSON.parse(
      '{"__proto__": {"x": 1}, "constructor": "c", "prototype": 2, "__lookupGetter__": "g"}',
    );
    const scope = { trigger: payload };
    expect(await ev.evaluate("trigger.__proto__.x", scope)).toBe(1);
    expect(await ev.evaluate("trigger.constructor", scope)).toBe("c");
    expect(await ev.evaluate("trigger.prototype", scope)).toBe(2);
    expect(await ev.evaluate("trigger.__lookupGetter__", scope)).toBe("g");
    expect(await ev.evaluate("{}.constructor", scope)).toBeUndefined();
    expect(await ev.evaluate('"abc".constructor', scope)).toBeUndefined();
  });

  it("hands back objects whose `__proto__` key is data, never a prototype an expression chose", async () => {
    const out = (await ev.evaluate('{"__proto__": {"admin": true}, "a": 1}', {})) as Record<string, unknown>;
    expect(out.admin).toBeUndefined();
    expect(Object.keys(out)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ admin: true });
  });

  it("does not let data forge a JSONata function", async () => {
    const forged = {
      _jsonata_lambda: true,
      arguments: [],
      body: { type: "string", value: "forged" },
      environment: {},
    };
    const out = await ev.evaluate("trigger.f()", { trigger: { f: forged } }).catch((e: Error) => e.message);
    expect(out).not.toBe("forged");
  });

  it("keeps a built-in opaque to $spread, so its host implementation never becomes a value", async () => {
    for (const src of [
      "$spread([$string]).implementation",
      "$type($spread([$lookup])[0].implementation)",
      "($f := $spread([$eval]); $f[0].implementation)",
    ]) {
      expect(await ev.evaluate(src, {}), src).toBeUndefined();
    }
    // The built-in itself stays a JSONata function: calling it is calling $eval, bounds and all.
    expect(await ev.evaluate('($f := $spread([$eval]); $f[0]("1 + 1"))', {})).toBe(2);
    expect(await ev.evaluate("$spread({'a': 1, 'b': [2]})", {})).toEqual([{ a: 1 }, { b: [2] }]);
  });

  it("refuses a bare host function wherever an evaluation step produces one", async () => {
    // JSONata hands a function argument to a built-in as a host closure; one that comes back out must not
    // become a value (had a built-in's implementation leaked, calling it with a forged `this` ran unbounded).
    await expect(ev.evaluate("$spread($eval)", {})).rejects.toThrow(
      "a host function is not a value an expression can use",
    );
    expect(await ev.evaluate("$match('abc', /b/).match", {})).toBe("b");
  });
});
