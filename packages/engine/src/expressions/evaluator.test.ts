import { describe, expect, it } from "vitest";
import { rejected } from "../__tests__/rejected";
import { NodeError } from "../errors";
import { checkExpressionSyntax, createExpressionEvaluator, ExpressionLimitError } from "./evaluator";
import { resolveConfig } from "./resolve";

const scope = {
  item: { name: "Ada", n: 2, tags: ["x", "y"] },
  items: [
    { name: "Ada", n: 2 },
    { name: "Bob", n: 5 },
  ],
  trigger: { body: { id: 7 } },
  nodes: { fetch: { items: [{ status: 200 }], item: { status: 200 } } },
  run: { id: "r1", flowId: "f1", startedAt: "2030-01-01T00:00:00.000Z", channel: "manual" },
};

describe("expression evaluator", () => {
  const ev = createExpressionEvaluator({ timeoutMs: 200 });

  it("reads item, items, trigger, nodes and run from the scope as paths and as variables", async () => {
    expect(await ev.evaluate("item.name", scope)).toBe("Ada");
    expect(await ev.evaluate("$sum(items.n)", scope)).toBe(7);
    expect(await ev.evaluate("trigger.body.id", scope)).toBe(7);
    expect(await ev.evaluate("nodes.fetch.item.status", scope)).toBe(200);
    expect(await ev.evaluate("run.channel", scope)).toBe("manual");
    expect(await ev.evaluate("items[n > $item.n].name", scope)).toBe("Bob");
  });

  it("returns plain arrays for JSONata sequences", async () => {
    const out = await ev.evaluate("items.name", scope);
    expect(out).toEqual(["Ada", "Bob"]);
    expect(Object.keys(out as object)).toEqual(["0", "1"]);
  });

  it("cannot reach constructors, prototypes or host globals", async () => {
    for (const src of [
      "item.constructor",
      "item.__proto__",
      '$lookup(item, "constructor")',
      "item.constructor.constructor",
      '$eval("item.constructor")',
      "process",
      "$process",
      "$require",
      "globalThis",
      "$globalThis",
      '{"__proto__": {"polluted": true}}.polluted',
    ]) {
      expect(await ev.evaluate(src, scope), src).toBeUndefined();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("does not hand JSONata functions back to the host", async () => {
    expect(await ev.evaluate("function($x){ $x }", scope)).toBeUndefined();
    expect(await ev.evaluate("$sum", scope)).toBeUndefined();
    expect(await ev.evaluate('{"f": $sum, "g": [function($x){$x}, 1], "k": 2}', scope)).toEqual({
      g: [undefined, 1],
      k: 2,
    });
  });

  it("stops endless recursion with a clear timeout error", async () => {
    const err = await rejected(ev.evaluate("($f := function(){ $f() }; $f())", scope));
    expect(err).toBeInstanceOf(ExpressionLimitError);
    expect(err.code).toBe("expression_limit");
    expect(err.message).toBe("expression ran longer than 200 ms (infinite loop?)");
  });

  it("refuses a range of a billion numbers instead of allocating it", async () => {
    const err = await rejected(ev.evaluate("[1..1e9]", scope));
    expect(err).toBeInstanceOf(ExpressionLimitError);
    expect(err.message).toBe("array of 1000000000 entries is longer than 1000000 (maxArrayLength)");
  });

  it("stops long loops over large ranges on the wall clock", async () => {
    const slow = createExpressionEvaluator({ timeoutMs: 200, maxSteps: 1e9 });
    const err = await rejected(slow.evaluate("$sum($map([1..1e6], function($v){ $v * 2 }))", scope));
    expect(err.message).toBe("expression ran longer than 200 ms (infinite loop?)");
  });

  it("caps $pad so one call cannot allocate a giant string", async () => {
    const err = await rejected(ev.evaluate('$pad("", 100000000)', scope));
    expect(err.message).toBe("string of 100000000 characters is longer than 10000000 (maxStringLength)");
    expect(await ev.evaluate('$pad("ab", 4, "-")', scope)).toBe("ab--");
    expect(await ev.evaluate('$pad("ab", -4)', scope)).toBe("  ab");
  });

  it("reports the position of a syntax error", () => {
    expect(checkExpressionSyntax("item.a +")).toEqual({
      message: "Unexpected end of expression",
      position: 8,
    });
    expect(checkExpressionSyntax("item.a + 1")).toBeUndefined();
  });
});

describe("resolveConfig", () => {
  it("resolves = expressions keeping their type, {{ }} templates as text, and leaves the rest untouched", async () => {
    const headers = { accept: "json" };
    const config = {
      count: "=item.n + 1",
      braces: "={{ item.tags }}",
      greeting: "Hello {{ item.name }}, you have {{ item.n }} {{ $count(items) > 1 ? 'friends' : 'friend' }}",
      literal: "==not an expression",
      plain: "just text",
      nested: { list: ["=trigger.body.id", 3, true, null] },
      headers,
    };
    const out = await resolveConfig(config, scope);
    expect(out).toEqual({
      count: 3,
      braces: ["x", "y"],
      greeting: "Hello Ada, you have 2 friends",
      literal: "=not an expression",
      plain: "just text",
      nested: { list: [7, 3, true, null] },
      headers: { accept: "json" },
    });
    expect(out.headers).toBe(headers);
  });

  it("returns the same object when nothing needs resolving", async () => {
    const config = { a: 1, b: { c: ["x"] } };
    expect(await resolveConfig(config, scope)).toBe(config);
  });

  it("handles object constructors and '}}' inside string literals within templates", async () => {
    const out = await resolveConfig({ t: 'a {{ {"k": {"v": item.n}}.k.v }} b {{ "}}" }}' }, scope);
    expect(out).toEqual({ t: "a 2 b }}" });
  });

  it("names the node, the field path and the position in the whole string when evaluation fails", async () => {
    const err = await rejected(
      resolveConfig({ body: { text: "Hi {{ item.name & }}" } }, scope, { nodeId: "mail" }),
    );
    expect(err).toBeInstanceOf(NodeError);
    expect(err.code).toBe("expression_failed");
    expect(err.nodeId).toBe("mail");
    expect(err.field).toBe("body.text");
    expect(err.message).toMatch(/^node "mail" field "body\.text" at position \d+: /);
  });

  it("gives line and column for errors in multi-line expressions", async () => {
    const err = await rejected(resolveConfig({ q: "=(\n  item.n +\n)" }, scope, { nodeId: "n" }));
    expect(err.message).toMatch(/\(line 3, column \d+\)/);
  });

  it("reports an unclosed {{ with its position", async () => {
    const err = await rejected(resolveConfig({ t: "abc {{ item.n" }, scope, { nodeId: "n" }));
    expect(err.message).toBe('node "n" field "t" at position 5: unclosed {{ in text');
  });
});
