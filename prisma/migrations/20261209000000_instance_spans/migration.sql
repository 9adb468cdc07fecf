-- Each instance of a run from its boot status markers (runs/<id>/status/<instance>.json): the span its realized cost
-- bills (model/run-cost.ts). The S3 import writes them; a run on this machine has none.
CREATE TABLE "instance_spans" (
    "run_id" TEXT NOT NULL,
    "instance" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "instance_type" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL,
    "ended_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "instance_spans_pkey" PRIMARY KEY ("run_id","instance")
);

ALTER TABLE "instance_spans" ADD CONSTRAINT "instance_spans_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
