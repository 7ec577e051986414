import type Database from "better-sqlite3";
import type { Flavour } from "../flavours";

export const PROFILE_DOC = "PROFILE.md";
export const MEMORY_DOC = "MEMORY.md";
export const facetDoc = (flavour: Flavour) => `facet:${flavour}`;

export function readDocument(db: Database.Database, name: string): string | null {
  const row = db.prepare("SELECT content FROM documents WHERE name = ?").get(name) as
    | { content: string }
    | undefined;
  return row?.content ?? null;
}

export function writeDocument(db: Database.Database, name: string, content: string): void {
  db.prepare(
    "INSERT INTO documents (name, content, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
  ).run(name, content, new Date().toISOString());
}

export function deleteDocument(db: Database.Database, name: string): boolean {
  return db.prepare("DELETE FROM documents WHERE name = ?").run(name).changes > 0;
}
