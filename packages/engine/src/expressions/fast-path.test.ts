import jsonata from "jsonata";
import { describe, expect, it } from "vitest";
import { createExpressionEvaluator } from "./evaluator";
import { compileFast, FALLBACK } from "./fast-path";

// Small deterministic PRNG so a failure names a reproducible case.
function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const keys = ["a", "b", "n", "constructor", "length", "toString"];

function randomValue(r: () => number, depth: number): unknown {
  const x = r();
  if (depth > 2 || x < 0.3) return [0, 1, -2.5, 1e308, "7", "x", true, null, false][Math.floor(r() * 9)];
  if (x < 0.4) return [randomValue(r, depth + 1), randomValue(r, depth + 1)];
  const obj: Record<string, unknown> = {};
  for (const k of keys) if (r() < 0.5) obj[k] = randomValue(r, depth + 1);
  return obj;
}

function randomExpression(r: () => number, depth: number): string {
  const x = r();
  if (depth > 2 || x < 0.45) {
    const steps = 1 + Math.floor(r() * 3);
    return Array.from({ length: steps }, () => keys[Math.floor(r() * keys.length)]).join(".");
  }
  if (x < 0.6) return ["1", "0", "2.5", '"s"', "true", "null", "1e308"][Math.floor(r() * 7)]!;
  const op = ["+", "-", "*", "/", "%"][Math.floor(r() * 5)];
  return `(${randomExpression(r, depth + 1)} ${op} ${randomExpression(r, depth + 1)})`;
}

describe("expression fast path", () => {
  it("answers exactly what JSONata answers whenever it answers at all (3 000 random cases)", async () => {
    const r = prng(42);
    let answered = 0;
    for (let i = 0; i < 3000; i++) {
      const source = randomExpression(r, 0);
      const data = {
        a: randomValue(r, 0),
        b: randomValue(r, 0),
        n: randomValue(r, 0),
        constructor: randomValue(r, 0),
      };
      const expr = jsonata(source);
      const fast = compileFast(expr.ast());
      if (!fast) continue;
      const got = fast(data);
      if (got === FALLBACK) continue;
      answered++;
      const want = await expr.evaluate(data, data);
      expect({ source, data, got }).toEqual({ source, data, got: want });
    }
    // Most generated shapes are in the subset: the comparison above is not vacuous.
    expect(answered).toBeGreaterThan(1000);
  });

  it("leaves predicates, functions, variables and string operators to JSONata", () => {
    for (const source of [
      "a[0]",
      "$sum(a)",
      "$item.x",
      'a & "x"',
      "a = 1",
      "a.b[n > 1]",
      "-a",
      "a ? 1 : 2",
      "{ 'x': a }",
    ]) {
      expect(compileFast(jsonata(source).ast()), source).toBeUndefined();
    }
  });

  it("keeps JSONata's errors: a string operand still fails with T2001 at the position JSONata names", async () => {
    const evaluator = createExpressionEvaluator();
    await expect(evaluator.evaluate("item.n + 1", { item: { n: "7" } })).rejects.toMatchObject({
      jsonataCode: "T2001",
      position: 8,
    });
    await expect(evaluator.evaluate("item.n + 1", { item: { n: 41 } })).resolves.toBe(42);
    await expect(evaluator.evaluate("item.list", { item: { list: [{ a: 1 }] } })).resolves.toEqual([
      { a: 1 },
    ]);
    await expect(
      evaluator.evaluate("item.list.a", { item: { list: [{ a: 1 }, { a: 2 }] } }),
    ).resolves.toEqual([1, 2]);
  });
});
