-- A token holder may quarantine a run: it stays listed, with its reason, and is left out of every aggregate view.
ALTER TABLE "runs" ADD COLUMN "quarantine_reason" TEXT;
ALTER TABLE "runs" ADD COLUMN "quarantined_at" TIMESTAMP(3);

-- A phase's clients reported are its distinct client indexes 0..clients-1 (model/aggregate/rules.ts clientsReported):
-- one numbered beyond used to count, and made a phase look complete. Recomputed for the phases stored before.
UPDATE "phases" p SET "clients_reported" = a.n
FROM (
  SELECT c."phase_id", COUNT(*) FILTER (WHERE c."client_index" >= 0 AND c."client_index" < q."clients")::int AS n
  FROM "client_results" c JOIN "phases" q ON q."id" = c."phase_id"
  GROUP BY c."phase_id"
) a
WHERE p."id" = a."phase_id" AND p."clients_reported" <> a.n;
