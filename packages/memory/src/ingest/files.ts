import { readdirSync, readFileSync } from "node:fs";
import { basename, extname, join } from "node:path";
import type { ParsedItemInput } from "../types";
import { contactContent, type Contact, parseContactsCsv } from "./contacts";
import { parseMarkdownNote } from "./markdown";
import { parseTranscript } from "./transcript";
import { parseVcards } from "./vcard";

export type FileType = "markdown" | "transcript-json" | "transcript-text" | "contacts-csv" | "vcard";

const BY_EXTENSION: Record<string, FileType> = {
  ".md": "markdown",
  ".markdown": "markdown",
  ".json": "transcript-json",
  ".txt": "transcript-text",
  ".csv": "contacts-csv",
  ".vcf": "vcard",
  ".vcard": "vcard",
};
export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION);

export function detectFileType(path: string): FileType | null {
  return BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

/** Supported files under `dir`, recursively, skipping hidden folders and node_modules. */
export function listImportableFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && detectFileType(p)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

export interface ParsedFile {
  items: ParsedItemInput[];
  /** Items under this source prefix that the file no longer contains are deleted on re-import. */
  stalePrefix?: string;
  skippedRecords: number;
}

export interface ParseOptions {
  namespace: string;
  thread?: string;
  /** Source to record instead of `file:<path>` (an uploaded file's temp path means nothing later). */
  source?: string;
}

/** Parses one file (absolute path) into items whose `source` makes re-imports idempotent. */
export function parseFile(path: string, type: FileType, opts: ParseOptions): ParsedFile {
  const text = readFileSync(path, "utf8");
  const source = opts.source ?? `file:${path}`;
  const name = basename(path);
  if (type === "markdown") {
    const note = parseMarkdownNote(text, name);
    return {
      items: [
        {
          namespace: opts.namespace,
          kind: "memory",
          key: note.title,
          content: note.content,
          tags: note.tags,
          source,
        },
      ],
      skippedRecords: 0,
    };
  }
  if (type === "transcript-json" || type === "transcript-text") {
    const thread = opts.thread ?? name.slice(0, name.length - extname(name).length);
    const utterances = parseTranscript(text, type === "transcript-json" ? "json" : "text");
    return {
      // One item per utterance, anchored by position: an edited line updates in place.
      items: utterances.map((u, i) => ({
        namespace: opts.namespace,
        kind: "transcript" as const,
        key: u.at ? `${u.speaker} @ ${u.at}` : u.speaker,
        content: u.text,
        thread,
        tags: [],
        source: `${source}#${i}`,
      })),
      stalePrefix: `${source}#`,
      skippedRecords: 0,
    };
  }
  const { contacts, skipped } = type === "vcard" ? parseVcards(text) : parseContactsCsv(text);
  const seen = new Map<string, number>();
  const items = contacts.map((c: Contact) => {
    const n = (seen.get(c.ref) ?? 0) + 1;
    seen.set(c.ref, n);
    return {
      namespace: opts.namespace,
      kind: "person" as const,
      key: c.name,
      content: contactContent(c),
      tags: c.tags,
      source: `${source}#${c.ref}${n > 1 ? `#${n}` : ""}`,
    };
  });
  return { items, stalePrefix: `${source}#`, skippedRecords: skipped };
}
