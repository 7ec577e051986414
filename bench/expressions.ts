/**
 * Expression evaluator cost per evaluation (the sandbox's share of a webhook's hot path): typical
 * config expressions against a small webhook scope, and field reads against a 1 MB payload. As in the
 * executor, a fresh scope object per evaluation around shared item, items, trigger and nodes objects;
 * "first sight" hands every evaluation a payload not seen before (its structuredClone is included).
 *
 *   npx tsx bench/expressions.ts [iterations=20000]
 */
import { createExpressionEvaluator } from "../packages/engine/src/index";

const N = Number(process.argv[2] ?? 20_000);
const ev = createExpressionEvaluator();

const small = {
  body: { name: "Ada", n: 4, text: "aaa bbb aaa ccc", lines: [{ price: 3 }, { price: 4 }] },
  query: { a: "1" },
  headers: { "content-type": "application/json" },
};
const big = {
  body: {
    id: 7,
    rows: Array.from({ length: 5000 }, (_, i) => ({
      i,
      name: `row ${i}`,
      tags: ["a", "b"],
      note: "x".repeat(150),
    })),
  },
};
const run = { id: "r", flowId: "f", startedAt: "2030-01-01T00:00:00.000Z", channel: "webhook" };
const items = Array.from({ length: 100 }, (_, i) => ({ n: i, lines: [{ price: i }, { price: 1 }] }));

const nodes = {};
const webhook = { item: small, items: [small], trigger: small, nodes, run };
const list = { item: items[0], items, trigger: small, nodes, run };
const large = { item: big, items: [big], trigger: big, nodes, run };
const cases: [string, string, () => Record<string, unknown>][] = [
  ["field path (fast path)", "item.body.n + 1", () => ({ ...webhook })],
  ["object constructor", "{ 'ok': true, 'n': item.body.n }", () => ({ ...webhook })],
  ["string concat", '"Hello " & item.body.name & "!"', () => ({ ...webhook })],
  ["regex replace", '$replace(item.body.text, /a+/, "x")', () => ({ ...webhook })],
  ["map over 100 items", 'items[n > 50].{ "n": n, "total": $sum(lines.price) }', () => ({ ...list })],
  ["1 MB payload, field read", "trigger.body.id & ''", () => ({ ...large })],
  ["1 MB payload, first sight", "trigger.body.id & ''", () => ({ ...large, trigger: structuredClone(big) })],
];

for (const [label, src, scope] of cases) {
  const n = label.includes("first sight") ? Math.ceil(N / 100) : N;
  for (let i = 0; i < Math.min(200, n); i++) await ev.evaluate(src, scope());
  const started = performance.now();
  for (let i = 0; i < n; i++) await ev.evaluate(src, scope());
  const us = ((performance.now() - started) * 1000) / n;
  console.log(`${label.padEnd(28)} ${us.toFixed(1).padStart(8)} µs/evaluation`);
}
