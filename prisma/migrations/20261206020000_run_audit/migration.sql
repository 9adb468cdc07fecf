-- Who quarantined, released or deleted a run, when, why and what it was before (api/store/run-admin.ts): one row per
-- action, kept after the run is deleted (no foreign key), served by GET /runs/:id/audit.
CREATE TABLE "run_audit" (
  "id" SERIAL NOT NULL PRIMARY KEY,
  "run_id" TEXT NOT NULL,
  "action" TEXT NOT NULL,
  "actor" TEXT NOT NULL,
  "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "reason" TEXT,
  "previous" JSONB NOT NULL
);
CREATE INDEX "run_audit_run_id_idx" ON "run_audit"("run_id");
