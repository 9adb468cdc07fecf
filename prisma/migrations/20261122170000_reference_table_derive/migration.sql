-- AlterTable
ALTER TABLE "reference_tables" ADD COLUMN     "derive" JSONB;
