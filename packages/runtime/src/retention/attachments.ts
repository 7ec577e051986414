import type Database from "better-sqlite3";

export interface AttachmentReclaimReport {
  /** Attachment files deleted because no remaining run refers to them. */
  deleted: number;
  /** Candidates kept because a remaining run (the same message for another flow, a rerun) still refers to them. */
  stillReferenced: number;
}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Deletes the stored attachments of pruned runs, except those a remaining run still lists: one message
 * for two flows stores its attachments once, and a rerun copies its payload. The remaining runs are read
 * in rowid chunks with the event loop yielded between them, so a large Run table never stalls requests.
 */
export async function reclaimAttachments(
  sql: Database.Database,
  candidates: string[],
  remove: (id: string) => boolean,
  o: { chunk?: number; pause?: () => Promise<void> } = {},
): Promise<AttachmentReclaimReport> {
  if (candidates.length === 0) return { deleted: 0, stillReferenced: 0 };
  const pause = o.pause ?? yieldLoop;
  const chunk = o.chunk ?? 2000;
  const wanted = JSON.stringify(candidates);
  const lastRowid = sql.prepare(
    `SELECT max(rowid) AS last FROM (SELECT rowid FROM "Run" WHERE rowid > ? ORDER BY rowid LIMIT ?)`,
  );
  const referenced = sql.prepare(
    `SELECT DISTINCT json_extract(j.value, '$.id') AS id
     FROM (SELECT triggerPayload FROM "Run" WHERE rowid > ? AND rowid <= ?) r, json_each(r.triggerPayload, '$.attachments') j
     WHERE j.type = 'object' AND json_extract(j.value, '$.id') IN (SELECT value FROM json_each(?))`,
  );
  const kept = new Set<string>();
  let after = 0;
  for (;;) {
    const { last } = lastRowid.get(after, chunk) as { last: number | null };
    if (last === null) break;
    for (const row of referenced.all(after, last, wanted) as { id: string }[]) kept.add(row.id);
    after = last;
    await pause();
  }
  let deleted = 0;
  for (const id of candidates) if (!kept.has(id) && remove(id)) deleted++;
  return { deleted, stillReferenced: kept.size };
}
