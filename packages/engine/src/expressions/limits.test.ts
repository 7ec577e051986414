import { describe, expect, it } from "vitest";
import { rejected } from "../__tests__/rejected";
import { NodeError } from "../errors";
import { checkExpressionSyntax, createExpressionEvaluator, ExpressionLimitError } from "./evaluator";
import { resolveConfig } from "./resolve";

const ev = createExpressionEvaluator();
const evil = { s: `${"a".repeat(40)}!` };
const doubling = '($f := function($s, $n){ $n = 0 ? $s : $f($s & $s, $n - 1) }; $f("ab", 40))';

describe("regexes in expressions", () => {
  it("answers a catastrophic pattern on hostile input at once, through every regex built-in", async () => {
    expect(await ev.evaluate("$contains(s, /^(a+)+$/)", evil)).toBe(false);
    expect(await ev.evaluate("$match(s, /^(a+)+$/)", evil)).toBeUndefined();
    expect(await ev.evaluate('$replace(s, /^(a+)+$/, "x")', evil)).toBe(evil.s);
    expect(await ev.evaluate("$split(s, /(a|aa)+b/)", evil)).toEqual([evil.s]);
    expect(await ev.evaluate("s ~> /^(a|a)*$/", evil)).toBeUndefined();
  });

  it("keeps JavaScript regex semantics for flags, groups, unicode and successive matches", async () => {
    expect(await ev.evaluate('$match("a1 B2 c3", /([a-z])(\\d)/i).groups', {})).toEqual([
      "a",
      "1",
      "B",
      "2",
      "c",
      "3",
    ]);
    expect(await ev.evaluate('$replace("héllo wörld", /ö|é/, "o")', {})).toBe("hollo world");
    expect(await ev.evaluate('$split("a, b,c", /,\\s*/)', {})).toEqual(["a", "b", "c"]);
    expect(await ev.evaluate('$match("x\\ny", /^y$/m).index', {})).toBe(2);
    expect(await ev.evaluate('$replace("2024-01-15", /(\\d+)-(\\d+)-(\\d+)/, "$3.$2.$1")', {})).toBe(
      "15.01.2024",
    );
    expect(await ev.evaluate('$match("😀a😀b", /[ab]/).index', {})).toEqual([2, 5]);
  });

  it("refuses backreferences and lookaround when the expression is checked, naming the position", () => {
    expect(checkExpressionSyntax("$match(s, /(a)\\1/)")).toEqual({
      message:
        "regex /(a)\\1/ is not supported by the linear-time regex engine (no backreferences or lookaround): error parsing regexp: invalid escape sequence: `\\1`",
      position: 17,
    });
    expect(checkExpressionSyntax("$contains(s, /a(?=b)/)")?.message).toMatch(
      /^regex \/a\(\?=b\)\/ is not supported .*`\(\?=`$/,
    );
  });

  it("refuses a regex search over a string longer than the bound", async () => {
    const err = await rejected(ev.evaluate("$contains(s, /x/)", { s: "a".repeat(1_000_001) }));
    expect(err).toBeInstanceOf(ExpressionLimitError);
    expect(err.message).toBe(
      "regex applied to a string of 1000001 characters, longer than 1000000 (maxRegexInputLength)",
    );
  });
});

describe("growth and work limits", () => {
  it("stops string doubling with expression_limit once a string passes maxStringLength", async () => {
    const err = await rejected(ev.evaluate(doubling, {}));
    expect(err).toBeInstanceOf(ExpressionLimitError);
    expect(err.code).toBe("expression_limit");
    expect(err.retryable).toBe(false);
    expect(err.message).toBe("string of 16777216 characters is longer than 10000000 (maxStringLength)");
  });

  it("stops a structure that doubles by sharing before $string or & flattens it", async () => {
    const tree = '($f := function($o, $n){ $n = 0 ? $o : $f({"l": $o, "r": $o}, $n - 1) }; $f("x", 40))';
    for (const src of [tree, `$string(${tree})`, `"" & ${tree}`]) {
      const err = await rejected(ev.evaluate(src, {}));
      expect(err.message, src).toBe(
        "value built by the expression is larger than 10000000 characters as JSON (maxStringLength)",
      );
    }
  });

  it("bounds the built-ins that allocate in one call by their input sizes", async () => {
    const big = { words: Array.from({ length: 2000 }, () => "x".repeat(10_000)), s: "ab".repeat(3_000_000) };
    const cases: [string, string][] = [
      ['$join(words, "")', "string of 20000000 characters is longer than 10000000 (maxStringLength)"],
      ['$pad("", 20000000)', "string of 20000000 characters is longer than 10000000 (maxStringLength)"],
      ['$replace(s, "a", "aaaa")', "string of 15000000 characters is longer than 10000000 (maxStringLength)"],
      ['$split(s, "")', "array of 1000001 entries is longer than 1000000 (maxArrayLength)"],
      ["[1..1e9]", "array of 1000000000 entries is longer than 1000000 (maxArrayLength)"],
      [
        "$string(words[[0..599]]) & $string(words[[0..599]])",
        "string of 12003602 characters is longer than 10000000 (maxStringLength)",
      ],
      [
        "$string(words, true)",
        "value built by the expression is larger than 10000000 characters as JSON (maxStringLength)",
      ],
    ];
    for (const [src, message] of cases) {
      const err = await rejected(ev.evaluate(src, big));
      expect(err.code, src).toBe("expression_limit");
      expect(err.message, src).toBe(message);
    }
    expect(await ev.evaluate("$length(s)", big)).toBe(6_000_000);
    expect(await ev.evaluate("$substring(s, -3)", big)).toBe("bab");
    expect(await ev.evaluate("$count($distinct($split($substring(s, 0, 5000), '')))", big)).toBe(2);
    expect(await ev.evaluate("$sort([3, 1, 2])", {})).toEqual([1, 2, 3]);
    // Higher-order functions pass as many arguments as a built-in declares: the overrides keep the count.
    expect(await ev.evaluate("$map([1, 2], $string)", {})).toEqual(["1", "2"]);
    expect(await ev.evaluate('$map(["ab", "c"], $length)', {})).toEqual([2, 1]);
  });

  it("keeps the bounds inside $eval, whose source names no built-in up front", async () => {
    const err = await rejected(ev.evaluate("$eval(code)", { code: '$pad("", 20000000)' }));
    expect(err.message).toBe("string of 20000000 characters is longer than 10000000 (maxStringLength)");
    expect(await ev.evaluate("$eval(code)", { code: "$contains(s, /^(a+)+$/)", s: evil.s })).toBe(false);
    const grow = await rejected(ev.evaluate("$eval(code)", { code: doubling }));
    expect(grow.code).toBe("expression_limit");
  });

  it("refuses a timestamp picture that would backtrack for long", async () => {
    const err = await rejected(
      ev.evaluate('$toMillis(t, "[MNn][FNn][MNn][FNn][MNn][FNn][MNn][FNn]")', { t: `${"a".repeat(300)}!` }),
    );
    expect(err.message).toBe(
      "$toMillis: a 301-character timestamp against a picture with 8 components is too costly to parse",
    );
    expect(await ev.evaluate('$toMillis("2024-01-15", "[Y0001]-[M01]-[D01]")', {})).toBe(1705276800000);
  });

  it("refuses a picture longer than 1000 characters before JSONata analyses it, for every picture built-in", async () => {
    // 40 kB of grouping separators took 6 s in one uninterruptible call before the bound.
    const picture = `0${",0".repeat(20_000)}`;
    for (const [src, name] of [
      ["$formatNumber(1, p)", "formatNumber"],
      ["$formatInteger(1, p)", "formatInteger"],
      ["$parseInteger('1', p)", "parseInteger"],
      ["$fromMillis(0, '[Y' & p & ']')", "fromMillis"],
    ] as const) {
      const err = await rejected(ev.evaluate(src, { p: picture }));
      expect(err, src).toBeInstanceOf(ExpressionLimitError);
      expect(err.message, src).toMatch(
        new RegExp(`^\\$${name} picture of \\d+ characters is longer than 1000`),
      );
    }
    expect(await ev.evaluate('$formatNumber(1234.5, "#,##0.00")', {})).toBe("1,234.50");
    expect(await ev.evaluate('$formatInteger(42, "w")', {})).toBe("forty-two");
    expect(await ev.evaluate('$fromMillis(0, "[Y0001]-[M01]-[D01]")', {})).toBe("1970-01-01");
  });

  it("refuses URL encoding and case mapping whose worst-case result would pass maxStringLength", async () => {
    const small = createExpressionEvaluator({ maxStringLength: 9_000 });
    for (const src of ["$encodeUrl(s)", "$encodeUrlComponent(s)", "$uppercase(s)", "$lowercase(s)"]) {
      const err = await rejected(small.evaluate(src, { s: "€".repeat(3_001) }));
      expect(err, src).toBeInstanceOf(ExpressionLimitError);
    }
    expect(await small.evaluate("$encodeUrlComponent(s)", { s: "€ b" })).toBe("%E2%82%AC%20b");
    expect(await small.evaluate("$uppercase(s)", { s: "straße" })).toBe("STRASSE");
  });

  it("counts evaluation steps, not only wall-clock time", async () => {
    const small = createExpressionEvaluator({ maxSteps: 1000, timeoutMs: 60_000 });
    const err = await rejected(small.evaluate("$sum($map([1..1000], function($v){ $v * 2 }))", {}));
    expect(err.message).toBe("expression took more than 1000 evaluation steps (maxSteps)");
    expect(await small.evaluate("$sum($map([1..10], function($v){ $v * 2 }))", {})).toBe(110);
  });

  it("fails the node with expression_limit naming the node and the field", async () => {
    const err = await rejected(resolveConfig({ body: `=${doubling}` }, {}, { nodeId: "grow" }));
    expect(err).toBeInstanceOf(NodeError);
    expect(err.code).toBe("expression_limit");
    expect(err.retryable).toBe(false);
    expect(err.nodeId).toBe("grow");
    expect(err.field).toBe("body");
    expect(err.message).toMatch(
      /^node "grow" field "body" at position \d+: string of 16777216 characters is longer than 10000000 \(maxStringLength\)$/,
    );
  });
});
