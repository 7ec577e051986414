-- The tables and indexes of the SQLite migration of the same name. The SQLite triggers that keep
-- RunCount, RunTotal and RunSearchDoc and the FTS5 index are not here: on PostgreSQL the runs list
-- counts with a grouped query and searches with ILIKE (packages/db/src/repos/run-list-postgres.ts),
-- so these tables stay empty until a PostgreSQL search and counter design lands (docs/scale-out.md).

-- CreateTable
CREATE TABLE "RunCount" (
    "hour" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "RunCount_pkey" PRIMARY KEY ("hour", "flowId", "channel", "status")
);

-- CreateTable
CREATE TABLE "RunTotal" (
    "flowId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "RunTotal_pkey" PRIMARY KEY ("flowId", "channel", "status")
);

-- CreateTable
CREATE TABLE "RunSearchDoc" (
    "id" SERIAL NOT NULL,
    "runId" TEXT NOT NULL,
    "createdAt" TEXT NOT NULL,
    "flowId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "durationMs" INTEGER,

    CONSTRAINT "RunSearchDoc_pkey" PRIMARY KEY ("id")
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
