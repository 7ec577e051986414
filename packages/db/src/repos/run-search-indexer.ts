import type Database from "better-sqlite3";

/** Documents added per transaction when catching up (a long backlog commits in steps, not in one go). */
const BATCH = 5000;

/**
 * Adds waiting search documents (RunSearchDoc rows past RunSearchMark.indexedThrough) to the FTS5 index,
 * oldest first, in batches. Admission leaves them waiting because FTS5 writes and merges a segment per
 * transaction, which cost more per group-committed run than every other row of the run together; one
 * INSERT … SELECT over many runs pays that once. The text is composed here as the triggers compose it
 * (the run's error, the first 8 KiB of its payload, its steps' errors), so a run that failed before it
 * was indexed is found by its errors too.
 */
export function createRunSearchIndexer(sql: Database.Database) {
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
  const step = sql.transaction((): number => {
    const from = mark.get() as number;
    const to = Math.min((newest.get() as number | null) ?? 0, from + BATCH);
    if (to <= from) return 0;
    add.run(from, to);
    advance.run(to);
    return to - from;
  });
  return {
    /** Indexes every waiting document; returns how many ids it advanced over. Cheap when none wait. */
    catchUp(): number {
      let n = 0;
      for (let k = step(); k > 0; k = step()) n += k;
      return n;
    },
    /** Documents admitted and not yet in the full-text index. */
    waiting(): number {
      return Math.max(0, ((newest.get() as number | null) ?? 0) - (mark.get() as number));
    },
  };
}
export type RunSearchIndexer = ReturnType<typeof createRunSearchIndexer>;
