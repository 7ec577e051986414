/**
 * Regexes in expressions run on RE2 (re2js, linear time in the searched text), never on V8's
 * backtracking engine: JSONata builds every regex literal through its `RegexEngine` option, and
 * `$match`, `$replace`, `$split` and `$contains` only take such literals. RE2 has no backreferences
 * and no lookaround; a pattern that uses them is refused when the expression is compiled.
 */
import { RE2JS } from "re2js";
import { type Budget, chargeStep, ExpressionLimitError } from "./limits";

const compiled = new Map<string, RE2JS>();

/** Compiles a JavaScript-syntax pattern (flags `i`, `m`; JSONata adds `g`) for RE2, cached. */
function compileRe2(source: string, flags: string): RE2JS {
  const key = `${flags}/${source}`;
  let re = compiled.get(key);
  if (!re) {
    let f = 0;
    if (flags.includes("i")) f |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes("m")) f |= RE2JS.MULTILINE;
    re = RE2JS.compile(RE2JS.translateRegExp(source), f);
    if (compiled.size >= 500) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, re);
  }
  return re;
}

/** The part of RegExp that JSONata uses (`lastIndex`, `exec`), searching with RE2 within a budget. */
class Re2RegExp {
  lastIndex = 0;
  private searches = 0;

  constructor(
    private readonly re: RE2JS,
    private readonly budget: Budget,
  ) {}

  exec(input: string): (RegExpExecArray & string[]) | null {
    const { limits } = this.budget;
    const str = String(input);
    if (str.length > limits.maxRegexInputLength)
      throw new ExpressionLimitError(
        `regex applied to a string of ${str.length} characters, longer than ${limits.maxRegexInputLength} (maxRegexInputLength)`,
      );
    chargeStep(this.budget);
    // $match/$replace/$split loop over searches inside one built-in call, between JSONata's own checks.
    if (++this.searches > limits.maxArrayLength)
      throw new ExpressionLimitError(
        `regex matched more than ${limits.maxArrayLength} times (maxArrayLength)`,
      );
    if (Date.now() > this.budget.deadline)
      throw new ExpressionLimitError(`expression ran longer than ${limits.timeoutMs} ms (infinite loop?)`);
    const start = this.lastIndex;
    const m = this.re.matcher(str);
    if (start > str.length || !m.find(start)) {
      this.lastIndex = 0;
      return null;
    }
    const out = [] as unknown as RegExpExecArray & string[];
    for (let g = 0; g <= m.groupCount(); g++) out.push(m.group(g) ?? (undefined as unknown as string));
    out.index = m.start();
    out.input = str;
    this.lastIndex = m.end();
    return out;
  }
}

export type RegexEngineFactory = ((literal: RegExp) => Re2RegExp) & { budget: Budget };

/** The `RegexEngine` JSONata calls with `new` for one evaluation: every search charges its budget. */
export function regexEngineFor(budget: Budget): RegexEngineFactory {
  // A plain function: `new` on it returns the object it returns.
  const factory = function RegexEngine(literal: RegExp) {
    return new Re2RegExp(compileRe2(literal.source, literal.flags), budget);
  } as RegexEngineFactory;
  factory.budget = budget;
  return factory;
}

interface AstNode {
  type?: unknown;
  value?: unknown;
  position?: unknown;
}

/** The first regex literal RE2 cannot compile, with a message naming it, or undefined. */
export function regexProblem(ast: unknown): { message: string; position: number } | undefined {
  const seen = new Set<object>();
  const visit = (node: unknown, depth: number): { message: string; position: number } | undefined => {
    if (node === null || typeof node !== "object" || seen.has(node) || depth > 10_000) return undefined;
    seen.add(node);
    const n = node as AstNode;
    if (n.type === "regex" && n.value instanceof RegExp) {
      try {
        compileRe2(n.value.source, n.value.flags);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        return {
          message: `regex /${n.value.source}/ is not supported by the linear-time regex engine (no backreferences or lookaround): ${why}`,
          position: typeof n.position === "number" ? n.position : 0,
        };
      }
      return undefined;
    }
    for (const child of Object.values(node)) {
      const found = visit(child, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  return visit(ast, 0);
}
