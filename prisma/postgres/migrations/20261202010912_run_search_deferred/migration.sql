-- The table of the SQLite migration of the same name. Its triggers and the FTS5 index it tracks are
-- SQLite's only (see 20261201222507_runs_at_scale): on PostgreSQL the table holds its one row and nothing
-- reads it.

-- CreateTable
CREATE TABLE "RunSearchMark" (
    "id" INTEGER NOT NULL,
    "indexedThrough" INTEGER NOT NULL,

    CONSTRAINT "RunSearchMark_pkey" PRIMARY KEY ("id")
);

INSERT INTO "RunSearchMark" ("id", "indexedThrough") VALUES (1, 0);
