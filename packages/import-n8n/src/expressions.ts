/**
 * n8n parameter values → Switchyard config values. In n8n a string starting with `=` is an expression:
 * text with `{{ javascript }}` parts. Ours: `=jsonata` for a whole value (keeps its type) and
 * `text {{ jsonata }}` for text. A plain n8n string that would look like an expression to us is written
 * so it stays literal.
 */
import { jsToJsonata, type NodeRefs } from "./js-to-jsonata";
import type { ReportBuilder } from "./report";

type Part = { text: string } | { code: string };

/** Splits n8n expression text into literal text and `{{ }}` code (quotes inside code are respected). */
export function splitTemplate(text: string): Part[] | undefined {
  const parts: Part[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{{", i);
    if (open < 0) {
      parts.push({ text: text.slice(i) });
      break;
    }
    if (open > i) parts.push({ text: text.slice(i, open) });
    let j = open + 2;
    let quote: string | undefined;
    for (; j < text.length; j++) {
      const ch = text[j];
      if (quote) {
        if (ch === "\\") j++;
        else if (ch === quote) quote = undefined;
      } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
      else if (ch === "}" && text[j + 1] === "}") break;
    }
    if (j >= text.length) return undefined;
    parts.push({ code: text.slice(open + 2, j) });
    i = j + 2;
  }
  return parts;
}

/** A literal string that our config parser will read back as the same literal. */
export function literalString(value: string): string {
  if (value.startsWith("=")) return `=${value}`;
  if (value.includes("{{")) return `=${JSON.stringify(value)}`;
  return value;
}

export interface ExpressionContext {
  refs: NodeRefs;
  report: ReportBuilder;
  /** The n8n node name, for the report. */
  node: string;
}

/**
 * A whole n8n expression as one JSONata expression (text parts joined with `&`), or undefined after
 * reporting why it could not be translated.
 */
export function expressionToJsonata(
  value: string,
  field: string,
  ctx: ExpressionContext,
): string | undefined {
  const parts = splitTemplate(value.slice(1));
  if (!parts) return void reportUnclosed(value, field, ctx);
  const out: string[] = [];
  const onlyCode = parts.length === 1 || parts.every((p) => "code" in p || p.text.trim() === "");
  const codeParts = parts.filter((p): p is { code: string } => "code" in p);
  for (const p of onlyCode && codeParts.length === 1 ? codeParts : parts) {
    if ("text" in p) {
      out.push(JSON.stringify(p.text));
      continue;
    }
    const j = codeToJsonata(p.code, field, ctx);
    if (j === undefined) return undefined;
    out.push(onlyCode && codeParts.length === 1 ? j : `$string(${j})`);
  }
  if (out.length === 0) return '""';
  return out.length === 1 ? out[0]! : out.join(" & ");
}

/** One `{{ }}` body in JSONata, or undefined after reporting why it could not be translated. */
function codeToJsonata(code: string, field: string, ctx: ExpressionContext): string | undefined {
  const t = jsToJsonata(code, ctx.refs);
  if (t.ok) return t.jsonata;
  ctx.report.problem(
    "expression_untranslated",
    ctx.node,
    field,
    `{{${code}}} could not be translated (${t.reason}); rewrite it in JSONata`,
  );
  return undefined;
}

function reportUnclosed(value: string, field: string, ctx: ExpressionContext): void {
  ctx.report.problem("expression_untranslated", ctx.node, field, `unclosed {{ in ${JSON.stringify(value)}`);
}

/**
 * One n8n string parameter as a config string. An expression that cannot be translated keeps its n8n
 * text (reported as a problem: it must be rewritten).
 */
export function translateString(value: string, field: string, ctx: ExpressionContext): string {
  if (!value.startsWith("=")) return literalString(value);
  const parts = splitTemplate(value.slice(1));
  const codes = parts?.filter((p) => "code" in p) ?? [];
  if (parts && codes.length === 0) return literalString(value.slice(1));
  // A single {{ }} with only blank text around keeps the value's type (`=expr`); otherwise it is text.
  if (parts && codes.length === 1 && parts.every((p) => "code" in p || p.text.trim() === "")) {
    const j = expressionToJsonata(value, field, ctx);
    return j === undefined ? value : `=${j}`;
  }
  if (!parts) {
    reportUnclosed(value, field, ctx);
    return value;
  }
  let out = "";
  for (const p of parts) {
    if ("text" in p) {
      out += p.text;
      continue;
    }
    const j = codeToJsonata(p.code, field, ctx);
    if (j === undefined) return value;
    out += `{{ ${j} }}`;
  }
  // Text that starts with = would read as a whole expression: make it one that builds the text.
  if (out.startsWith("=")) {
    const j = expressionToJsonata(value, field, ctx);
    return j === undefined ? value : `=${j}`;
  }
  return out;
}

/** Any n8n parameter value (strings translated, objects and arrays walked). */
export function translateValue(value: unknown, field: string, ctx: ExpressionContext): unknown {
  if (typeof value === "string") return translateString(value, field, ctx);
  if (Array.isArray(value)) return value.map((v, i) => translateValue(v, `${field}.${i}`, ctx));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, translateValue(v, `${field}.${k}`, ctx)]),
    );
  return value;
}

/**
 * A value as a JSONata operand inside a bigger expression (conditions): an expression is wrapped in
 * parentheses, a literal becomes a JSONata literal (`asNumber` turns numeric text into a number).
 */
export function operand(
  value: unknown,
  field: string,
  ctx: ExpressionContext,
  asNumber = false,
): string | undefined {
  if (typeof value === "string" && value.startsWith("=")) {
    const j = expressionToJsonata(value, field, ctx);
    // A bare path or literal needs no parentheses; anything with an operator keeps its own precedence.
    return j === undefined ? undefined : /\s/.test(j) ? `(${j})` : j;
  }
  if (asNumber && typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return String(Number(value));
  if (value === undefined) return "null";
  return JSON.stringify(value);
}

/**
 * n8n JSON text with `{{ }}` inside (a JSON body, a respond body) as a JSONata object constructor:
 * JSON is valid JSONata, so each `{{ }}` outside a string becomes `(expr)` and a string holding some
 * becomes a concatenation. Undefined when the text is not such JSON.
 */
export function jsonTemplateToJsonata(
  text: string,
  field: string,
  ctx: ExpressionContext,
): string | undefined {
  let out = "";
  let i = 0;
  const code = (start: number): [string, number] | undefined => {
    const parts = splitTemplate(text.slice(start));
    const first = parts?.[0];
    if (!first || !("code" in first)) return undefined;
    const t = jsToJsonata(first.code, ctx.refs);
    if (!t.ok) {
      ctx.report.problem(
        "expression_untranslated",
        ctx.node,
        field,
        `{{${first.code}}} could not be translated (${t.reason}); rewrite it in JSONata`,
      );
      return undefined;
    }
    return [t.jsonata, text.indexOf("}}", start + 2 + first.code.length) + 2];
  };
  while (i < text.length) {
    if (text.startsWith("{{", i)) {
      const c = code(i);
      if (!c) return undefined;
      out += `(${c[0]})`;
      i = c[1];
    } else if (text[i] === '"') {
      const pieces: string[] = [];
      let literal = "";
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\") {
          literal += text.slice(j, j + 2);
          j++;
        } else if (text.startsWith("{{", j)) {
          const c = code(j);
          if (!c) return undefined;
          if (literal) pieces.push(`"${literal}"`);
          literal = "";
          pieces.push(`$string(${c[0]})`);
          j = c[1] - 1;
        } else literal += text[j];
      }
      if (literal || pieces.length === 0) pieces.push(`"${literal}"`);
      out += pieces.length === 1 ? pieces[0] : `(${pieces.join(" & ")})`;
      i = j + 1;
    } else {
      out += text[i];
      i++;
    }
  }
  return out.trim();
}
