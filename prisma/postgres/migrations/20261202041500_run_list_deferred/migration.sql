-- The tables and indexes of the SQLite migration of the same name. The run list's indexes leave Run here
-- too, so PostgreSQL's admissions write eleven index entries fewer per run; its list (Prisma, keyset by id,
-- packages/db/src/repos/run-list-postgres.ts) did not read them. RunDocPending stays empty here.

-- CreateTable
CREATE TABLE "RunDocPending" (
    "id" INTEGER NOT NULL,
    "runId" TEXT NOT NULL,

    CONSTRAINT "RunDocPending_pkey" PRIMARY KEY ("id")
);

-- DropIndex
DROP INDEX "Run_createdAt_idx";

-- DropIndex
DROP INDEX "Run_status_createdAt_idx";

-- DropIndex
DROP INDEX "Run_channel_createdAt_idx";

-- DropIndex
DROP INDEX "Run_status_channel_createdAt_idx";

-- DropIndex
DROP INDEX "Run_flowId_status_createdAt_idx";

-- DropIndex
DROP INDEX "Run_flowId_channel_createdAt_idx";

-- DropIndex
DROP INDEX "Run_flowId_status_channel_createdAt_idx";

-- DropIndex
DROP INDEX "Run_durationMs_idx";

-- DropIndex
DROP INDEX "Run_flowId_durationMs_idx";

-- DropIndex
DROP INDEX "Run_status_durationMs_idx";

-- DropIndex
DROP INDEX "Run_channel_durationMs_idx";

-- CreateIndex
CREATE INDEX "RunSearchDoc_createdAt_idx" ON "RunSearchDoc"("createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_flowId_createdAt_idx" ON "RunSearchDoc"("flowId", "createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_status_createdAt_idx" ON "RunSearchDoc"("status", "createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_channel_createdAt_idx" ON "RunSearchDoc"("channel", "createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_status_channel_createdAt_idx" ON "RunSearchDoc"("status", "channel", "createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_flowId_status_createdAt_idx" ON "RunSearchDoc"("flowId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_flowId_channel_createdAt_idx" ON "RunSearchDoc"("flowId", "channel", "createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_flowId_status_channel_createdAt_idx" ON "RunSearchDoc"("flowId", "status", "channel", "createdAt");

-- CreateIndex
CREATE INDEX "RunSearchDoc_durationMs_idx" ON "RunSearchDoc"("durationMs");

-- CreateIndex
CREATE INDEX "RunSearchDoc_flowId_durationMs_idx" ON "RunSearchDoc"("flowId", "durationMs");

-- CreateIndex
CREATE INDEX "RunSearchDoc_status_durationMs_idx" ON "RunSearchDoc"("status", "durationMs");

-- CreateIndex
CREATE INDEX "RunSearchDoc_channel_durationMs_idx" ON "RunSearchDoc"("channel", "durationMs");
