export interface MarkdownNote {
  title: string;
  content: string;
  tags: string[];
}

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Minimal YAML front-matter reader: `key: value`, `key: [a, b]` and `- item` lists. */
export function parseFrontMatter(block: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  let listKey: string | null = null;
  for (const raw of block.split(/\r?\n/)) {
    const item = raw.match(/^\s+-\s+(.*)$|^-\s+(.*)$/);
    if (item && listKey) {
      const current = out[listKey];
      const list = Array.isArray(current) ? current : [];
      list.push(unquote(item[1] ?? item[2] ?? ""));
      out[listKey] = list;
      continue;
    }
    const kv = raw.match(/^([A-Za-z0-9_-]+)\s*:\s*(.*)$/);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    const value = kv[2]!.trim();
    listKey = value === "" ? key : null;
    if (value.startsWith("[") && value.endsWith("]")) {
      out[key] = value
        .slice(1, -1)
        .split(",")
        .map((s) => unquote(s.trim()))
        .filter(Boolean);
    } else if (value !== "") out[key] = unquote(value);
  }
  return out;
}

function unquote(s: string): string {
  return s.replace(/^(["'])(.*)\1$/, "$2");
}

function toTags(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : value.split(/[,\s]+/);
  return [...new Set(list.map((t) => t.replace(/^#/, "").trim()).filter(Boolean))];
}

/** Title from front-matter, else the first heading, else the file name; tags from front-matter. */
export function parseMarkdownNote(text: string, fileName: string): MarkdownNote {
  let body = text;
  let meta: Record<string, string | string[]> = {};
  const fm = text.match(FRONT_MATTER);
  if (fm) {
    meta = parseFrontMatter(fm[1]!);
    body = text.slice(fm[0].length);
  }
  const fmTitle = typeof meta.title === "string" && meta.title.trim() !== "" ? meta.title.trim() : null;
  let title = fmTitle;
  if (title === null) {
    const heading = body.match(/^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/m);
    if (heading) {
      title = heading[1]!.trim();
      // The heading became the title; keeping it in the body too would double its weight.
      body = body.slice(0, heading.index) + body.slice(heading.index! + heading[0].length);
    }
  }
  title ??= fileName.replace(/\.(md|markdown)$/i, "");
  return { title, content: body.trim(), tags: toTags(meta.tags ?? meta.tag) };
}
