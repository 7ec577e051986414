import type Database from "better-sqlite3";

/** Documents added per transaction when catching up (a long backlog commits in steps, not in one go). */
const BATCH = 5000;

/**
 * Turns the runs admission left in RunDocPending into RunSearchDoc rows (the run list's indexed copy of each
 * run), then adds waiting search documents (RunSearchDoc rows past RunSearchMark.indexedThrough) to the FTS5 index,
 * oldest first, in batches. Admission leaves them waiting because FTS5 writes and merges a segment per
 * transaction, which cost more per group-committed run than every other row of the run together; one
 * INSERT … SELECT over many runs pays that once. The text is composed here as the triggers compose it
 * (the run's error, the first 8 KiB of its payload, its steps' errors), so a run that failed before it
 * was indexed is found by its errors too.
 */
export function createRunSearchIndexer(sql: Database.Database) {
  const pendingThrough = sql
    .prepare(`SELECT max("id") FROM (SELECT "id" FROM "RunDocPending" ORDER BY "id" LIMIT ?)`)
    .pluck();
  // Current values, not the admitted ones: a status or duration that changed before its document existed
  // is taken from the run. A run deleted meanwhile has no row to join and is dropped with its entry.
  const addDocs = sql.prepare(
    `INSERT INTO "RunSearchDoc" ("runId", "createdAt", "flowId", "channel", "status", "durationMs")
     SELECT r."id", r."createdAt", r."flowId", r."channel", r."status", r."durationMs"
     FROM "RunDocPending" p JOIN "Run" r ON r."id" = p."runId"
     WHERE p."id" <= ? ORDER BY p."id"
     ON CONFLICT ("runId") DO NOTHING`,
  );
  const dropPending = sql.prepare(`DELETE FROM "RunDocPending" WHERE "id" <= ?`);
  /** Returns how many pending runs it consumed (deleted runs included). */
  const docStep = sql.transaction((limit: number): number => {
    const through = pendingThrough.get(limit) as number | null;
    if (through === null) return 0;
    addDocs.run(through);
    return dropPending.run(through).changes;
  });
  const mark = sql.prepare(`SELECT "indexedThrough" FROM "RunSearchMark" WHERE "id" = 1`).pluck();
  const newest = sql.prepare(`SELECT max("id") FROM "RunSearchDoc"`).pluck();
  const add = sql.prepare(
    `INSERT INTO "RunSearch" (rowid, body)
     SELECT d."id", coalesce(r."errorMessage" || ' ', '') || substr(r."triggerPayload", 1, 8192)
         || coalesce(' ' || (SELECT group_concat(s."errorMessage", ' ') FROM "Step" s
                             WHERE s."runId" = r."id" AND s."errorMessage" IS NOT NULL), '')
     FROM "RunSearchDoc" d JOIN "Run" r ON r."id" = d."runId"
     WHERE d."id" > ? AND d."id" <= ? ORDER BY d."id"`,
  );
  const advance = sql.prepare(`UPDATE "RunSearchMark" SET "indexedThrough" = ? WHERE "id" = 1`);
  const step = sql.transaction((limit: number): number => {
    const from = mark.get() as number;
    const to = Math.min((newest.get() as number | null) ?? 0, from + limit);
    if (to <= from) return 0;
    add.run(from, to);
    advance.run(to);
    return to - from;
  });
  return {
    /** Indexes every waiting document; returns how many ids it advanced over. Cheap when none wait. */
    catchUp(): number {
      let n = 0;
      while (docStep(BATCH) > 0);
      for (let k = step(BATCH); k > 0; k = step(BATCH)) n += k;
      return n;
    },
    /** Makes every admitted run's list document, without the full-text index (lists and counts need no more). */
    catchUpDocs(): void {
      while (docStep(BATCH) > 0);
    },
    /**
     * At most `limit` list documents and `limit` search documents, in one short transaction each; true
     * while more may wait. For a timer that must not hold the event loop for a whole backlog.
     */
    catchUpSome(limit: number): boolean {
      const docs = docStep(limit);
      const texts = step(limit);
      return docs === limit || texts === limit;
    },
  };
}
export type RunSearchIndexer = ReturnType<typeof createRunSearchIndexer>;
