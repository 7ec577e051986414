/**
 * Translates the JavaScript of one n8n `{{ }}` into a JSONata expression over our scope (`item`, `items`,
 * `nodes.<id>`, `run`). Only what has an exact meaning in ours is translated: data references
 * (`$json`, `$input`, `$('Node')`, `$node["Node"]`), literals, comparison, logic, arithmetic, the
 * conditional, `$now`/`$today` and a few string methods. Anything else is refused with the reason,
 * so the importer reports it instead of guessing.
 */
import { type Token, tokenize } from "./js-tokens";

/** How n8n node names are referenced in our expressions: the node id, or undefined when unknown. */
export type NodeRefs = (n8nName: string) => string | undefined;

export type Translation = { ok: true; jsonata: string } | { ok: false; reason: string };

class Untranslatable extends Error {}
const fail = (reason: string): never => {
  throw new Untranslatable(reason);
};

/** A field name as a JSONata path step: bare when it is a plain name, else in backticks. */
export function pathStep(name: string): string {
  if (
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) &&
    !["and", "or", "in", "true", "false", "null", "function"].includes(name)
  )
    return name;
  if (name.includes("`")) fail(`field name ${JSON.stringify(name)} contains a backtick`);
  return `\`${name}\``;
}

const OPERATORS: Record<string, string> = {
  "===": "=",
  "==": "=",
  "!==": "!=",
  "!=": "!=",
  "&&": "and",
  "||": "or",
  "<": "<",
  ">": ">",
  "<=": "<=",
  ">=": ">=",
  "-": "-",
  "*": "*",
  "/": "/",
  "%": "%",
  "?": "?",
  ":": ":",
  ",": ",",
};

/** Methods with an exact JSONata equivalent, applied to the value before them. */
const METHODS = new Map<string, (target: string) => string>([
  ["toUpperCase", (t) => `$uppercase(${t})`],
  ["toLowerCase", (t) => `$lowercase(${t})`],
  ["trim", (t) => `$trim(${t})`],
  ["toString", (t) => `$string(${t})`],
  ["toISO", (t) => t],
]);

class Translator {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly refs: NodeRefs,
  ) {}

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.i + offset];
  }
  private isPunct(value: string, offset = 0) {
    const t = this.peek(offset);
    return t?.kind === "punct" && t.value === value;
  }
  private expectPunct(value: string) {
    if (!this.isPunct(value)) fail(`expected "${value}"`);
    this.i++;
  }
  private expectIdent(value: string) {
    const t = this.peek();
    if (t?.kind !== "ident" || t.value !== value) fail(`expected ".${value}"`);
    this.i++;
  }
  private nodeName(): string {
    const t = this.peek();
    if (t?.kind !== "string") fail("a node reference needs the node's name as a string");
    this.i++;
    return (t as { value: string }).value;
  }
  private nodeId(name: string): string {
    return this.refs(name) ?? fail(`no node named ${JSON.stringify(name)} in this workflow`);
  }

  run(): string {
    const out: string[] = [];
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i]!;
      if (t.kind === "punct") {
        if (t.value === "+") {
          // JSONata concatenates with &: use it when either side is text we can see.
          const prev = this.tokens[this.i - 1];
          const next = this.peek(1);
          out.push(prev?.kind === "string" || next?.kind === "string" ? "&" : "+");
          this.i++;
        } else if (t.value === "(" || t.value === ")" || t.value === "[" || t.value === "]") {
          out.push(t.value);
          this.i++;
        } else if (Object.hasOwn(OPERATORS, t.value)) {
          out.push(OPERATORS[t.value]!);
          this.i++;
        } else fail(`the operator "${t.value}" is not translated`);
        continue;
      }
      out.push(this.accessors(this.primary()));
    }
    return out.join(" ");
  }

  private primary(): string {
    const t = this.tokens[this.i++]!;
    if (t.kind === "string") return JSON.stringify(t.value);
    if (t.kind === "number") return t.value;
    if (t.kind !== "ident") return fail(`unexpected "${t.value}"`);
    switch (t.value) {
      case "true":
      case "false":
      case "null":
        return t.value;
      case "$json":
        return "item";
      case "$input":
        return this.inputRef();
      case "$":
        this.expectPunct("(");
        return this.nodeItem(this.nodeId(this.nodeName()), ")");
      case "$node":
        return this.legacyNodeRef();
      case "$now":
        return "$now()";
      case "$today":
        return "$fromMillis($floor($toMillis($now()) / 86400000) * 86400000)";
      case "$execution":
        this.expectPunct(".");
        this.expectIdent("id");
        return "run.id";
      case "$workflow":
        this.expectPunct(".");
        this.expectIdent("id");
        return "run.flowId";
      default:
        return fail(`"${t.value}" has no equivalent in Switchyard expressions`);
    }
  }

  /** `$input.item.json`, `$input.first().json`, `$input.last().json`, `$input.all()`. */
  private inputRef(): string {
    this.expectPunct(".");
    const m = this.peek();
    this.i++;
    if (m?.kind === "ident" && m.value === "item") return this.json("item");
    if (m?.kind === "ident" && (m.value === "first" || m.value === "last" || m.value === "all")) {
      this.expectPunct("(");
      this.expectPunct(")");
      if (m.value === "all") return this.allItems("items");
      return this.json(m.value === "first" ? "items[0]" : "items[-1]");
    }
    return fail("only $input.item, .first(), .last() and .all() are translated");
  }

  /** After `$('Node'` … the closing token: `.item.json`, `.first().json`, `.last().json`, `.all()`. */
  private nodeItem(id: string, close: string): string {
    this.expectPunct(close);
    this.expectPunct(".");
    const m = this.peek();
    this.i++;
    const base = `nodes.${pathStep(id)}`;
    if (m?.kind === "ident" && m.value === "item") return this.json(`${base}.item`);
    if (m?.kind === "ident" && (m.value === "first" || m.value === "last" || m.value === "all")) {
      this.expectPunct("(");
      if (!this.isPunct(")")) fail(`.${m.value}() with arguments is not translated`);
      this.expectPunct(")");
      if (m.value === "all") return this.allItems(`${base}.items`);
      return this.json(m.value === "first" ? `${base}.item` : `${base}.items[-1]`);
    }
    return fail("only .item, .first(), .last() and .all() of a node are translated");
  }

  /** `$node["Node"].json` or `$node.Node.json`. */
  private legacyNodeRef(): string {
    let name: string;
    if (this.isPunct("[")) {
      this.i++;
      name = this.nodeName();
      this.expectPunct("]");
    } else {
      this.expectPunct(".");
      const t = this.peek();
      if (t?.kind !== "ident") fail("expected a node name after $node.");
      this.i++;
      name = (t as { value: string }).value;
    }
    this.expectPunct(".");
    this.expectIdent("json");
    return `nodes.${pathStep(this.nodeId(name))}.item`;
  }

  private json(base: string): string {
    this.expectPunct(".");
    this.expectIdent("json");
    return base;
  }

  /** A list of items: `[i].json` picks one (our lists hold the JSON already), `.length` counts. */
  private allItems(base: string): string {
    if (this.isPunct("[") && this.peek(1)?.kind === "number" && this.isPunct("]", 2)) {
      const index = this.peek(1)!.value;
      this.i += 3;
      return this.json(`${base}[${index}]`);
    }
    if (this.isPunct(".") && this.peek(1)?.kind === "ident" && this.peek(1)!.value === "length") {
      this.i += 2;
      return `$count(${base})`;
    }
    return base;
  }

  /** `.field`, `["field"]`, `[0]` and the translated methods, after a value. */
  private accessors(base: string): string {
    let expr = base;
    for (;;) {
      if (this.isPunct(".") || this.isPunct("?.")) {
        const name = this.peek(1);
        if (name?.kind !== "ident") return fail("expected a field name after .");
        this.i += 2;
        if (this.isPunct("(")) {
          const method = METHODS.get(name.value);
          if (!method || !this.isPunct(")", 1)) return fail(`the method .${name.value}() is not translated`);
          this.i += 2;
          expr = method(expr);
        } else if (name.value === "length") {
          expr = `($type(${expr}) = "array" ? $count(${expr}) : $length(${expr}))`;
        } else expr = `${expr}.${pathStep(name.value)}`;
        continue;
      }
      if (this.isPunct("[") && this.isPunct("]", 2)) {
        const key = this.peek(1)!;
        if (key.kind === "string") expr = `${expr}.${pathStep(key.value)}`;
        else if (key.kind === "number") expr = `${expr}[${key.value}]`;
        else return fail("only literal keys inside [ ] are translated");
        this.i += 3;
        continue;
      }
      if (this.isPunct("(")) return fail("calling a value is not translated");
      return expr;
    }
  }
}

/** JSONata for the JavaScript inside one `{{ }}` of an n8n expression. */
export function jsToJsonata(source: string, refs: NodeRefs): Translation {
  const tokens = tokenize(source);
  if (!Array.isArray(tokens)) return { ok: false, reason: tokens.error };
  if (tokens.length === 0) return { ok: false, reason: "empty expression" };
  try {
    return { ok: true, jsonata: new Translator(tokens, refs).run() };
  } catch (err) {
    if (err instanceof Untranslatable) return { ok: false, reason: err.message };
    throw err;
  }
}
