/** A small JavaScript tokenizer, enough for the expressions people write inside n8n's `{{ }}`. */

export type Token =
  | { kind: "ident"; value: string }
  | { kind: "string"; value: string }
  | { kind: "number"; value: string }
  | { kind: "punct"; value: string };

const PUNCTS = [
  "===",
  "!==",
  "==",
  "!=",
  "<=",
  ">=",
  "&&",
  "||",
  "??",
  "?.",
  "=>",
  "...",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "!",
  "?",
  ":",
  ".",
  ",",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "=",
];

/** Tokens of `source`, or the reason it cannot be read (template literals, regex literals, …). */
export function tokenize(source: string): Token[] | { error: string } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      let value = "";
      let j = i + 1;
      for (; j < source.length && source[j] !== ch; j++) {
        if (source[j] === "\\") {
          const next = source[++j];
          value += next === "n" ? "\n" : next === "t" ? "\t" : next === "r" ? "\r" : (next ?? "");
        } else value += source[j];
      }
      if (j >= source.length) return { error: "unclosed string" };
      tokens.push({ kind: "string", value });
      i = j + 1;
      continue;
    }
    if (ch === "`") return { error: "template literals are not translated" };
    if (/[0-9]/.test(ch) || (ch === "." && /[0-9]/.test(source[i + 1] ?? ""))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(i))!;
      tokens.push({ kind: "number", value: m[0] });
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_$]/.test(ch)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(source.slice(i))!;
      tokens.push({ kind: "ident", value: m[0] });
      i += m[0].length;
      continue;
    }
    const p = PUNCTS.find((x) => source.startsWith(x, i));
    if (!p) return { error: `unexpected character "${ch}"` };
    tokens.push({ kind: "punct", value: p });
    i += p.length;
  }
  return tokens;
}
