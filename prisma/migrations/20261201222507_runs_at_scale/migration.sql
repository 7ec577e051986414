-- CreateTable
CREATE TABLE "RunCount" (
    "hour" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    PRIMARY KEY ("hour", "flowId", "channel", "status")
);

-- CreateTable
CREATE TABLE "RunTotal" (
    "flowId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    PRIMARY KEY ("flowId", "channel", "status")
);

-- CreateTable
CREATE TABLE "RunSearchDoc" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" TEXT NOT NULL,
    "createdAt" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "durationMs" INTEGER
);

-- CreateIndex
CREATE UNIQUE INDEX "RunSearchDoc_runId_key" ON "RunSearchDoc"("runId");

-- CreateIndex
CREATE INDEX "Run_status_createdAt_idx" ON "Run"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Run_channel_createdAt_idx" ON "Run"("channel", "createdAt");

-- CreateIndex
CREATE INDEX "Run_status_channel_createdAt_idx" ON "Run"("status", "channel", "createdAt");

-- CreateIndex
CREATE INDEX "Run_flowId_status_createdAt_idx" ON "Run"("flowId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Run_flowId_channel_createdAt_idx" ON "Run"("flowId", "channel", "createdAt");

-- CreateIndex
CREATE INDEX "Run_flowId_status_channel_createdAt_idx" ON "Run"("flowId", "status", "channel", "createdAt");

-- CreateIndex
CREATE INDEX "Run_durationMs_idx" ON "Run"("durationMs");

-- CreateIndex
CREATE INDEX "Run_flowId_durationMs_idx" ON "Run"("flowId", "durationMs");

-- CreateIndex
CREATE INDEX "Run_status_durationMs_idx" ON "Run"("status", "durationMs");

-- CreateIndex
CREATE INDEX "Run_channel_durationMs_idx" ON "Run"("channel", "durationMs");

-- Written by hand below this line: Prisma's schema has no notation for FTS5 tables or triggers.

-- Full-text index: one document per run (its error, the first 8 KiB of its payload, its steps' errors).
-- Contentless (the text stays in Run and Step only); contentless_delete lets a changed or deleted run
-- replace or drop its entry. Rowids are RunSearchDoc ids, which VACUUM keeps (Run's own rowid it may
-- renumber) and which grow in admission order: walking the index by rowid walks runs newest first.
CREATE VIRTUAL TABLE "RunSearch" USING fts5(
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Status counts per hour, flow and channel are inserted, moved and removed with the runs themselves,
-- so they are exact in every transaction and the runs page never scans Run to show them.
CREATE TRIGGER "Run_after_insert" AFTER INSERT ON "Run" BEGIN
    INSERT INTO "RunCount" ("hour", "flowId", "channel", "status", "n")
    VALUES (substr(new."createdAt", 1, 13), new."flowId", new."channel", new."status", 1)
    ON CONFLICT ("hour", "flowId", "channel", "status") DO UPDATE SET "n" = "n" + 1;
    INSERT INTO "RunTotal" ("flowId", "channel", "status", "n") VALUES (new."flowId", new."channel", new."status", 1)
    ON CONFLICT ("flowId", "channel", "status") DO UPDATE SET "n" = "n" + 1;
    INSERT INTO "RunSearchDoc" ("runId", "createdAt", "flowId", "channel", "status", "durationMs")
    VALUES (new."id", new."createdAt", new."flowId", new."channel", new."status", new."durationMs");
    -- Only the first 8 KiB of a payload is indexed: a MiB-sized body must not make admission slow.
    INSERT INTO "RunSearch" (rowid, body)
    VALUES (last_insert_rowid(), coalesce(new."errorMessage" || ' ', '') || substr(new."triggerPayload", 1, 8192));
END;

CREATE TRIGGER "Run_after_update_count" AFTER UPDATE OF "status", "flowId", "channel", "createdAt" ON "Run"
WHEN new."status" IS NOT old."status" OR new."flowId" IS NOT old."flowId"
  OR new."channel" IS NOT old."channel" OR new."createdAt" IS NOT old."createdAt"
BEGIN
    UPDATE "RunCount" SET "n" = "n" - 1
    WHERE "hour" = substr(old."createdAt", 1, 13) AND "flowId" = old."flowId"
      AND "channel" = old."channel" AND "status" = old."status";
    INSERT INTO "RunCount" ("hour", "flowId", "channel", "status", "n")
    VALUES (substr(new."createdAt", 1, 13), new."flowId", new."channel", new."status", 1)
    ON CONFLICT ("hour", "flowId", "channel", "status") DO UPDATE SET "n" = "n" + 1;
    UPDATE "RunTotal" SET "n" = "n" - 1
    WHERE "flowId" = old."flowId" AND "channel" = old."channel" AND "status" = old."status";
    INSERT INTO "RunTotal" ("flowId", "channel", "status", "n") VALUES (new."flowId", new."channel", new."status", 1)
    ON CONFLICT ("flowId", "channel", "status") DO UPDATE SET "n" = "n" + 1;
END;

-- The search document's copies of status and duration follow the run (one small row, by unique key).
CREATE TRIGGER "Run_after_update_doc" AFTER UPDATE OF "status", "durationMs" ON "Run"
WHEN new."status" IS NOT old."status" OR new."durationMs" IS NOT old."durationMs"
BEGIN
    UPDATE "RunSearchDoc" SET "status" = new."status", "durationMs" = new."durationMs" WHERE "runId" = new."id";
END;

-- A run that fails after admission, or a step that fails, re-indexes the run's document in place (same
-- rowid, so its place in the newest-first walk stays). Runs that succeed never pay for this.
CREATE TRIGGER "Run_after_update_error" AFTER UPDATE OF "errorMessage" ON "Run"
WHEN new."errorMessage" IS NOT old."errorMessage"
BEGIN
    DELETE FROM "RunSearch" WHERE rowid = (SELECT "id" FROM "RunSearchDoc" WHERE "runId" = new."id");
    INSERT INTO "RunSearch" (rowid, body)
    SELECT d."id", coalesce(new."errorMessage" || ' ', '') || substr(new."triggerPayload", 1, 8192)
        || coalesce(' ' || (SELECT group_concat(s."errorMessage", ' ') FROM "Step" s
                            WHERE s."runId" = new."id" AND s."errorMessage" IS NOT NULL), '')
    FROM "RunSearchDoc" d WHERE d."runId" = new."id";
END;

CREATE TRIGGER "Step_after_insert_error" AFTER INSERT ON "Step" WHEN new."errorMessage" IS NOT NULL BEGIN
    DELETE FROM "RunSearch" WHERE rowid = (SELECT "id" FROM "RunSearchDoc" WHERE "runId" = new."runId");
    INSERT INTO "RunSearch" (rowid, body)
    SELECT d."id", coalesce(r."errorMessage" || ' ', '') || substr(r."triggerPayload", 1, 8192)
        || coalesce(' ' || (SELECT group_concat(s."errorMessage", ' ') FROM "Step" s
                            WHERE s."runId" = r."id" AND s."errorMessage" IS NOT NULL), '')
    FROM "RunSearchDoc" d JOIN "Run" r ON r."id" = d."runId" WHERE d."runId" = new."runId";
END;

CREATE TRIGGER "Run_after_delete" AFTER DELETE ON "Run" BEGIN
    UPDATE "RunCount" SET "n" = "n" - 1
    WHERE "hour" = substr(old."createdAt", 1, 13) AND "flowId" = old."flowId"
      AND "channel" = old."channel" AND "status" = old."status";
    UPDATE "RunTotal" SET "n" = "n" - 1
    WHERE "flowId" = old."flowId" AND "channel" = old."channel" AND "status" = old."status";
    DELETE FROM "RunSearch" WHERE rowid = (SELECT "id" FROM "RunSearchDoc" WHERE "runId" = old."id");
    DELETE FROM "RunSearchDoc" WHERE "runId" = old."id";
END;

-- Existing runs: counts, then one search document per run, oldest first so rowids follow createdAt.
INSERT INTO "RunCount" ("hour", "flowId", "channel", "status", "n")
SELECT substr("createdAt", 1, 13), "flowId", "channel", "status", count(*) FROM "Run" GROUP BY 1, 2, 3, 4;

INSERT INTO "RunTotal" ("flowId", "channel", "status", "n")
SELECT "flowId", "channel", "status", "n" FROM (
    SELECT "flowId", "channel", "status", sum("n") AS "n" FROM "RunCount" GROUP BY 1, 2, 3
);

INSERT INTO "RunSearchDoc" ("runId", "createdAt", "flowId", "channel", "status", "durationMs")
SELECT "id", "createdAt", "flowId", "channel", "status", "durationMs" FROM "Run" ORDER BY "createdAt", "id";

INSERT INTO "RunSearch" (rowid, body)
SELECT d."id", coalesce(r."errorMessage" || ' ', '') || substr(r."triggerPayload", 1, 8192)
    || coalesce(' ' || (SELECT group_concat(s."errorMessage", ' ') FROM "Step" s
                        WHERE s."runId" = r."id" AND s."errorMessage" IS NOT NULL), '')
FROM "RunSearchDoc" d JOIN "Run" r ON r."id" = d."runId";
