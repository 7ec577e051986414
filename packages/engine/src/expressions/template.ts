/**
 * How config strings carry expressions:
 *  - `=expr`        the whole value is a JSONata expression (its result keeps its type);
 *  - `={{ expr }}`  the same (the braces are tolerated for people coming from n8n);
 *  - `a {{ expr }}` text with interpolations (the result is a string);
 *  - `==text`       a literal string starting with `=` (`=` can never start JSONata, so this is unambiguous).
 */

export type ParsedString =
  | { kind: "literal"; value: string }
  | { kind: "expression"; source: string; offset: number }
  | { kind: "template"; parts: TemplatePart[] };

export type TemplatePart = { text: string } | { source: string; offset: number };

export function isExpressionString(value: unknown): boolean {
  if (typeof value !== "string") return false;
  if (value.startsWith("=")) return !value.startsWith("==");
  return value.includes("{{");
}

/** Splits a config string into literal text and expression sources (with their offsets in the string). */
export function parseConfigString(
  value: string,
): ParsedString | { kind: "error"; message: string; offset: number } {
  if (value.startsWith("==")) return { kind: "literal", value: value.slice(1) };
  if (value.startsWith("=")) {
    const body = value.slice(1);
    const trimmed = body.trim();
    if (trimmed.startsWith("{{") && trimmed.endsWith("}}")) {
      const start = body.indexOf("{{") + 2;
      const end = findClose(body, start);
      if (end === body.lastIndexOf("}}"))
        return { kind: "expression", source: body.slice(start, end), offset: start + 1 };
    }
    return { kind: "expression", source: body, offset: 1 };
  }
  if (!value.includes("{{")) return { kind: "literal", value };
  const parts: TemplatePart[] = [];
  let i = 0;
  while (i < value.length) {
    const open = value.indexOf("{{", i);
    if (open < 0) {
      parts.push({ text: value.slice(i) });
      break;
    }
    if (open > i) parts.push({ text: value.slice(i, open) });
    const end = findClose(value, open + 2);
    if (end < 0) return { kind: "error", message: "unclosed {{ in text", offset: open };
    parts.push({ source: value.slice(open + 2, end), offset: open + 2 });
    i = end + 2;
  }
  return { kind: "template", parts };
}

/**
 * Index of the `}}` closing an interpolation that starts at `from`, skipping braces and `}}` inside
 * JSONata string literals and object constructors. -1 when unclosed.
 */
function findClose(text: string, from: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "{") depth++;
    else if (ch === "}") {
      if (depth > 0) depth--;
      else if (text[i + 1] === "}") return i;
    }
  }
  return -1;
}

/** How an interpolated value is written into text. */
export function interpolate(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

/** 1-based line and column of a 0-based index, for messages about multi-line values. */
export function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < index && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      last = i;
    }
  }
  return { line, column: index - last };
}
