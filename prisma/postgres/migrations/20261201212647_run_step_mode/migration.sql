-- AlterTable
ALTER TABLE "Run" ADD COLUMN "stepMode" TEXT;
ALTER TABLE "Run" ADD COLUMN "stepNode" TEXT;
