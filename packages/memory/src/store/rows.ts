import { createHash } from "node:crypto";
import type { MemoryItem, MemoryKind } from "../types";

export interface ItemRow {
  seq: number;
  id: string;
  namespace: string;
  kind: MemoryKind;
  key: string;
  content: string;
  thread: string | null;
  tags: string;
  source: string | null;
  content_hash: string;
  embedder_id: string | null;
  created_at: string;
  updated_at: string;
}

export function toItem(row: ItemRow): MemoryItem {
  return {
    id: row.id,
    namespace: row.namespace,
    kind: row.kind,
    key: row.key,
    content: row.content,
    thread: row.thread,
    tags: JSON.parse(row.tags) as string[],
    source: row.source,
    embedderId: row.embedder_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface Indexed {
  kind: MemoryKind;
  key: string;
  content: string;
  thread: string | null;
  tags: string[];
}

/** Hash of everything that is indexed: equal hashes mean a re-import changes nothing. */
export function contentHash(x: Indexed): string {
  return createHash("sha256")
    .update(JSON.stringify([x.kind, x.key, x.content, x.thread, x.tags]))
    .digest("base64url")
    .slice(0, 22);
}

/** The text an item is embedded from: title, thread and tags carry meaning too. */
export function embeddingText(x: Indexed): string {
  const head = [x.key, x.thread, x.tags.join(" ")].filter((s) => s && s.length > 0).join(" · ");
  return `${head}\n${x.content}`;
}
