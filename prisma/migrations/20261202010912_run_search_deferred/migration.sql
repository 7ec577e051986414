-- CreateTable
CREATE TABLE "RunSearchMark" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "indexedThrough" INTEGER NOT NULL
);

-- Written by hand below this line: Prisma's schema has no notation for triggers.

-- Every run admitted so far is in the index already.
INSERT INTO "RunSearchMark" ("id", "indexedThrough") VALUES (1, coalesce((SELECT max("id") FROM "RunSearchDoc"), 0));

-- Admission no longer writes the FTS5 index: one entry per transaction of group-committed runs cost more
-- than the rest of the run's rows together (FTS5 flushes and merges a segment per transaction). The
-- counts and the search document stay exact in the same transaction; the text follows in batches
-- (packages/db/src/repos/run-search-indexer.ts).
DROP TRIGGER "Run_after_insert";
CREATE TRIGGER "Run_after_insert" AFTER INSERT ON "Run" BEGIN
    INSERT INTO "RunCount" ("hour", "flowId", "channel", "status", "n")
    VALUES (substr(new."createdAt", 1, 13), new."flowId", new."channel", new."status", 1)
    ON CONFLICT ("hour", "flowId", "channel", "status") DO UPDATE SET "n" = "n" + 1;
    INSERT INTO "RunTotal" ("flowId", "channel", "status", "n") VALUES (new."flowId", new."channel", new."status", 1)
    ON CONFLICT ("flowId", "channel", "status") DO UPDATE SET "n" = "n" + 1;
    INSERT INTO "RunSearchDoc" ("runId", "createdAt", "flowId", "channel", "status", "durationMs")
    VALUES (new."id", new."createdAt", new."flowId", new."channel", new."status", new."durationMs");
END;

-- A failure re-indexes only a document the indexer has already added; one still waiting gets its
-- errors when the indexer composes it.
DROP TRIGGER "Run_after_update_error";
CREATE TRIGGER "Run_after_update_error" AFTER UPDATE OF "errorMessage" ON "Run"
WHEN new."errorMessage" IS NOT old."errorMessage"
BEGIN
    DELETE FROM "RunSearch" WHERE rowid = (
        SELECT d."id" FROM "RunSearchDoc" d, "RunSearchMark" m
        WHERE d."runId" = new."id" AND m."id" = 1 AND d."id" <= m."indexedThrough");
    INSERT INTO "RunSearch" (rowid, body)
    SELECT d."id", coalesce(new."errorMessage" || ' ', '') || substr(new."triggerPayload", 1, 8192)
        || coalesce(' ' || (SELECT group_concat(s."errorMessage", ' ') FROM "Step" s
                            WHERE s."runId" = new."id" AND s."errorMessage" IS NOT NULL), '')
    FROM "RunSearchDoc" d, "RunSearchMark" m
    WHERE d."runId" = new."id" AND m."id" = 1 AND d."id" <= m."indexedThrough";
END;

DROP TRIGGER "Step_after_insert_error";
CREATE TRIGGER "Step_after_insert_error" AFTER INSERT ON "Step" WHEN new."errorMessage" IS NOT NULL BEGIN
    DELETE FROM "RunSearch" WHERE rowid = (
        SELECT d."id" FROM "RunSearchDoc" d, "RunSearchMark" m
        WHERE d."runId" = new."runId" AND m."id" = 1 AND d."id" <= m."indexedThrough");
    INSERT INTO "RunSearch" (rowid, body)
    SELECT d."id", coalesce(r."errorMessage" || ' ', '') || substr(r."triggerPayload", 1, 8192)
        || coalesce(' ' || (SELECT group_concat(s."errorMessage", ' ') FROM "Step" s
                            WHERE s."runId" = r."id" AND s."errorMessage" IS NOT NULL), '')
    FROM "RunSearchDoc" d JOIN "Run" r ON r."id" = d."runId", "RunSearchMark" m
    WHERE d."runId" = new."runId" AND m."id" = 1 AND d."id" <= m."indexedThrough";
END;
