-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "sources" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "citation" TEXT,
    "seed" TEXT,
    "title" TEXT,
    "authors" TEXT,
    "year" INTEGER,

    CONSTRAINT "sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "scenario" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "preset" TEXT NOT NULL,
    "nodes" INTEGER NOT NULL,
    "data_instance_type" TEXT NOT NULL,
    "client_instance_type" TEXT NOT NULL,
    "storage" TEXT,
    "region" TEXT,
    "replication" INTEGER NOT NULL,
    "ycsb_version" TEXT NOT NULL,
    "bindings_version" TEXT,
    "ycsb_lab_version" TEXT NOT NULL,
    "provenance" JSONB,
    "repeat" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3),
    "stand_in" TEXT,
    "source_id" TEXT NOT NULL,
    "reference_table" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "phases" (
    "id" SERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "workload" TEXT,
    "properties" JSONB NOT NULL,
    "threads_per_client" INTEGER NOT NULL,
    "target" DOUBLE PRECISION,
    "clients" INTEGER NOT NULL,
    "throughput_sum" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "clients_reported" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "phases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "client_results" (
    "id" SERIAL NOT NULL,
    "phase_id" INTEGER NOT NULL,
    "run_id" TEXT NOT NULL,
    "client_index" INTEGER NOT NULL,
    "client_count" INTEGER NOT NULL,
    "host" TEXT,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3) NOT NULL,
    "runtime_ms" DOUBLE PRECISION NOT NULL,
    "throughput_ops_sec" DOUBLE PRECISION NOT NULL,
    "measurement_type" TEXT,
    "gc" JSONB NOT NULL,
    "resources" JSONB NOT NULL,
    "unknown_lines" JSONB NOT NULL,
    "warnings" JSONB NOT NULL,
    "document_hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "client_results_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operation_stats" (
    "id" SERIAL NOT NULL,
    "client_result_id" INTEGER NOT NULL,
    "operation" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    "avg_us" DOUBLE PRECISION,
    "min_us" DOUBLE PRECISION,
    "max_us" DOUBLE PRECISION,
    "percentiles_us" JSONB NOT NULL,
    "returns" JSONB NOT NULL,
    "histogram_buckets" JSONB,
    "time_series" JSONB,
    "extra" JSONB,
    "hdr_histogram" TEXT,

    CONSTRAINT "operation_stats_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "status_series" (
    "client_result_id" INTEGER NOT NULL,
    "points" JSONB NOT NULL,

    CONSTRAINT "status_series_pkey" PRIMARY KEY ("client_result_id")
);

-- CreateTable
CREATE TABLE "hdr_log_refs" (
    "id" SERIAL NOT NULL,
    "client_result_id" INTEGER NOT NULL,
    "operation" TEXT NOT NULL,
    "uri" TEXT NOT NULL,

    CONSTRAINT "hdr_log_refs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "validity_verdicts" (
    "client_result_id" INTEGER NOT NULL,
    "verdict" TEXT NOT NULL,
    "reasons" JSONB NOT NULL,

    CONSTRAINT "validity_verdicts_pkey" PRIMARY KEY ("client_result_id")
);

-- CreateTable
CREATE TABLE "s3_imports" (
    "bucket" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "etag" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "documents" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "imported_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "s3_imports_pkey" PRIMARY KEY ("bucket","key")
);

-- CreateTable
CREATE TABLE "reference_tables" (
    "id" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "table_ref" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "citation" TEXT NOT NULL,
    "unit" TEXT,
    "columns" JSONB NOT NULL,
    "rows" JSONB NOT NULL,
    "notes" TEXT,

    CONSTRAINT "reference_tables_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "runs_engine_nodes_idx" ON "runs"("engine", "nodes");

-- CreateIndex
CREATE INDEX "runs_scenario_idx" ON "runs"("scenario");

-- CreateIndex
CREATE INDEX "runs_source_id_idx" ON "runs"("source_id");

-- CreateIndex
CREATE INDEX "runs_started_at_idx" ON "runs"("started_at");

-- CreateIndex
CREATE INDEX "phases_workload_idx" ON "phases"("workload");

-- CreateIndex
CREATE UNIQUE INDEX "phases_run_id_name_key" ON "phases"("run_id", "name");

-- CreateIndex
CREATE INDEX "client_results_run_id_idx" ON "client_results"("run_id");

-- CreateIndex
CREATE UNIQUE INDEX "client_results_phase_id_client_index_key" ON "client_results"("phase_id", "client_index");

-- CreateIndex
CREATE UNIQUE INDEX "operation_stats_client_result_id_operation_key" ON "operation_stats"("client_result_id", "operation");

-- CreateIndex
CREATE UNIQUE INDEX "hdr_log_refs_client_result_id_operation_uri_key" ON "hdr_log_refs"("client_result_id", "operation", "uri");

-- CreateIndex
CREATE INDEX "validity_verdicts_verdict_idx" ON "validity_verdicts"("verdict");

-- CreateIndex
CREATE INDEX "reference_tables_seed_idx" ON "reference_tables"("seed");

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "sources"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "phases" ADD CONSTRAINT "phases_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_results" ADD CONSTRAINT "client_results_phase_id_fkey" FOREIGN KEY ("phase_id") REFERENCES "phases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operation_stats" ADD CONSTRAINT "operation_stats_client_result_id_fkey" FOREIGN KEY ("client_result_id") REFERENCES "client_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "status_series" ADD CONSTRAINT "status_series_client_result_id_fkey" FOREIGN KEY ("client_result_id") REFERENCES "client_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hdr_log_refs" ADD CONSTRAINT "hdr_log_refs_client_result_id_fkey" FOREIGN KEY ("client_result_id") REFERENCES "client_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "validity_verdicts" ADD CONSTRAINT "validity_verdicts_client_result_id_fkey" FOREIGN KEY ("client_result_id") REFERENCES "client_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

