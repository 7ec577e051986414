/**
 * A small JSONata tokenizer for highlighting and completion. It never rejects input: the engine's
 * validator owns correctness; this only colours what it recognises.
 */
export type TokenKind =
  | "marker"
  | "string"
  | "number"
  | "keyword"
  | "variable"
  | "scope"
  | "operator"
  | "comment"
  | "name"
  | "text";

export interface Token {
  kind: TokenKind;
  text: string;
}

const KEYWORDS = new Set(["and", "or", "in", "true", "false", "null", "function"]);
/** Names the expression scope provides (see the engine's expression docs). */
export const SCOPE_ROOTS = ["item", "items", "trigger", "nodes", "run"] as const;
const SCOPE = new Set<string>(SCOPE_ROOTS);

const RULES: [TokenKind, RegExp][] = [
  ["comment", /^\/\*[\s\S]*?(\*\/|$)/],
  ["string", /^"(?:[^"\\]|\\.)*"?|^'(?:[^'\\]|\\.)*'?/],
  ["number", /^-?\d+(\.\d+)?([eE][+-]?\d+)?/],
  ["variable", /^\$[A-Za-z0-9_]*/],
  ["name", /^`[^`]*`?|^[A-Za-z_][A-Za-z0-9_]*/],
  ["operator", /^(:=|!=|<=|>=|\.\.|~>|\?\?|\?:|[-+*/%=<>&|!?:;,.()[\]{}^#@~])/],
  ["text", /^\s+/],
];

export function tokenize(source: string): Token[] {
  const out: Token[] = [];
  let rest = source;
  if (rest.startsWith("=")) {
    out.push({ kind: "marker", text: "=" });
    rest = rest.slice(1);
  }
  while (rest.length) {
    let matched = false;
    for (const [kind, re] of RULES) {
      const m = re.exec(rest);
      if (!m?.[0]) continue;
      let k = kind;
      if (kind === "name")
        k = KEYWORDS.has(m[0])
          ? "keyword"
          : SCOPE.has(m[0]) && !out.at(-1)?.text.endsWith(".")
            ? "scope"
            : "name";
      out.push({ kind: k, text: m[0] });
      rest = rest.slice(m[0].length);
      matched = true;
      break;
    }
    if (!matched) {
      out.push({ kind: "text", text: rest[0] ?? "" });
      rest = rest.slice(1);
    }
  }
  return out;
}

export const tokenClass: Record<TokenKind, string> = {
  marker: "text-slate-400",
  string: "text-emerald-600 dark:text-emerald-400",
  number: "text-amber-600 dark:text-amber-400",
  keyword: "text-violet-600 dark:text-violet-400",
  variable: "text-sky-600 dark:text-sky-400",
  scope: "text-brand-600 font-semibold dark:text-brand-100",
  operator: "text-slate-500 dark:text-slate-400",
  comment: "text-slate-400 italic",
  name: "text-slate-900 dark:text-slate-100",
  text: "",
};

const FUNCTIONS = [
  "$string",
  "$number",
  "$boolean",
  "$exists",
  "$count",
  "$sum",
  "$max",
  "$min",
  "$average",
  "$length",
  "$substring",
  "$uppercase",
  "$lowercase",
  "$trim",
  "$contains",
  "$split",
  "$join",
  "$replace",
  "$now",
  "$millis",
  "$round",
  "$keys",
  "$lookup",
  "$merge",
  "$map",
  "$filter",
  "$reduce",
  "$sort",
  "$distinct",
  "$toMillis",
  "$fromMillis",
];

/**
 * Completions for the word before the caret: scope roots, `nodes.<id>`, field paths of the data that
 * flows into the node (`item.customer.name`, from the server's expression help) and JSONata functions.
 */
export function completionsFor(
  textBeforeCaret: string,
  nodeIds: readonly string[],
  paths: readonly string[] = [],
): { word: string; options: string[] } | null {
  // Inside an expression value, or inside an unclosed {{ … }} of a text template.
  const open = textBeforeCaret.lastIndexOf("{{");
  const inExpression =
    textBeforeCaret.startsWith("=") || (open >= 0 && !textBeforeCaret.slice(open).includes("}}"));
  if (!inExpression) return null;
  const m = /[$A-Za-z_][\w$.]*$/.exec(textBeforeCaret);
  const word = m?.[0] ?? "";
  if (!word) return null;
  const all = [...SCOPE_ROOTS, ...nodeIds.map((id) => `nodes.${id}`), ...paths, ...FUNCTIONS];
  const options = all.filter((o) => o.startsWith(word) && o !== word).slice(0, 8);
  return options.length ? { word, options } : null;
}
