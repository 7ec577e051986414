/**
 * Expression evaluator cost per evaluation (the sandbox's share of a webhook's hot path): typical
 * config expressions against a small webhook scope, and field reads against a 1 MB payload.
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

const cases: [string, string, () => Record<string, unknown>][] = [
  [
    "field path (fast path)",
    "item.body.n + 1",
    () => ({ item: small, items: [small], trigger: small, nodes: {}, run }),
  ],
  [
    "object constructor",
    "{ 'ok': true, 'n': item.body.n }",
    () => ({ item: small, items: [small], trigger: small, nodes: {}, run }),
  ],
  [
    "string concat",
    '"Hello " & item.body.name & "!"',
    () => ({ item: small, items: [small], trigger: small, nodes: {}, run }),
  ],
  [
    "regex replace",
    '$replace(item.body.text, /a+/, "x")',
    () => ({ item: small, items: [small], trigger: small, nodes: {}, run }),
  ],
  [
    "map over 100 items",
    'items[n > 50].{ "n": n, "total": $sum(lines.price) }',
    () => ({ item: items[0], items, trigger: small, nodes: {}, run }),
  ],
  [
    "1 MB payload, field read",
    "trigger.body.id & ''",
    () => ({ item: big, items: [big], trigger: big, nodes: {}, run }),
  ],
];

for (const [label, src, scope] of cases) {
  for (let i = 0; i < 200; i++) await ev.evaluate(src, scope());
  const started = performance.now();
  for (let i = 0; i < N; i++) await ev.evaluate(src, scope());
  const us = ((performance.now() - started) * 1000) / N;
  console.log(`${label.padEnd(28)} ${us.toFixed(1).padStart(8)} µs/evaluation`);
}
