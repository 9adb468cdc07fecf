-- The runs per value of every filter (GET /facets, the unfiltered count of GET /runs) and the phases per workload,
-- kept beside the tables instead of grouped from every run and phase at each request (a cold answer read all 10,000
-- runs and 40,000 phases after every write). Triggers on runs and phases append one row per changed group and
-- statement to the *_changes tables (an insert only: concurrent writers never wait on one another's counts); a reader
-- folds the changes into the totals (api/store/queries/facet-counts.ts), so what it reads is the groups plus what
-- the writes since the last read touched.
CREATE TABLE "run_facet_totals" (
    "engine" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "preset" TEXT NOT NULL,
    "nodes" INTEGER NOT NULL,
    "scenario" TEXT NOT NULL,
    "data_instance_type" TEXT NOT NULL,
    "client_instance_type" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "quarantined" BOOLEAN NOT NULL,
    "runs" INTEGER NOT NULL,

    CONSTRAINT "run_facet_totals_pkey" PRIMARY KEY ("engine","engine_version","preset","nodes","scenario","data_instance_type","client_instance_type","source_id","verdict","quarantined")
);

CREATE TABLE "run_facet_changes" (
    "id" BIGSERIAL NOT NULL,
    "engine" TEXT NOT NULL,
    "engine_version" TEXT NOT NULL,
    "preset" TEXT NOT NULL,
    "nodes" INTEGER NOT NULL,
    "scenario" TEXT NOT NULL,
    "data_instance_type" TEXT NOT NULL,
    "client_instance_type" TEXT NOT NULL,
    "source_id" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "quarantined" BOOLEAN NOT NULL,
    "runs" INTEGER NOT NULL,

    CONSTRAINT "run_facet_changes_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "workload_phase_totals" (
    "workload" TEXT NOT NULL,
    "phases" INTEGER NOT NULL,

    CONSTRAINT "workload_phase_totals_pkey" PRIMARY KEY ("workload")
);

CREATE TABLE "workload_phase_changes" (
    "id" BIGSERIAL NOT NULL,
    "workload" TEXT NOT NULL,
    "phases" INTEGER NOT NULL,

    CONSTRAINT "workload_phase_changes_pkey" PRIMARY KEY ("id")
);

-- A page of GET /runs in its order (started_at desc, id asc) read from one index, without sorting every run.
CREATE INDEX "runs_started_at_id_idx" ON "runs"("started_at" DESC, "id" ASC);

CREATE FUNCTION run_facets_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO run_facet_changes (engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined, runs)
  SELECT engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined_at IS NOT NULL, count(*)
  FROM added GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
  RETURN NULL;
END $$;

CREATE FUNCTION run_facets_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO run_facet_changes (engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined, runs)
  SELECT engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined_at IS NOT NULL, -count(*)
  FROM removed GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
  RETURN NULL;
END $$;

-- An update (a verdict kept by ingest, a quarantine) changes the counts only where a counted column changed.
CREATE FUNCTION run_facets_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO run_facet_changes (engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined, runs)
  SELECT k.engine, k.engine_version, k.preset, k.nodes, k.scenario, k.data_instance_type, k.client_instance_type, k.source_id, k.verdict, k.quarantined, sum(k.n)
  FROM (
    SELECT o.engine, o.engine_version, o.preset, o.nodes, o.scenario, o.data_instance_type, o.client_instance_type, o.source_id, o.verdict,
           o.quarantined_at IS NOT NULL AS quarantined, -1 AS n
    FROM removed o JOIN added a ON a.id = o.id
    WHERE (o.engine, o.engine_version, o.preset, o.nodes, o.scenario, o.data_instance_type, o.client_instance_type, o.source_id, o.verdict, o.quarantined_at IS NOT NULL)
          IS DISTINCT FROM (a.engine, a.engine_version, a.preset, a.nodes, a.scenario, a.data_instance_type, a.client_instance_type, a.source_id, a.verdict, a.quarantined_at IS NOT NULL)
    UNION ALL
    SELECT a.engine, a.engine_version, a.preset, a.nodes, a.scenario, a.data_instance_type, a.client_instance_type, a.source_id, a.verdict,
           a.quarantined_at IS NOT NULL, 1
    FROM removed o JOIN added a ON a.id = o.id
    WHERE (o.engine, o.engine_version, o.preset, o.nodes, o.scenario, o.data_instance_type, o.client_instance_type, o.source_id, o.verdict, o.quarantined_at IS NOT NULL)
          IS DISTINCT FROM (a.engine, a.engine_version, a.preset, a.nodes, a.scenario, a.data_instance_type, a.client_instance_type, a.source_id, a.verdict, a.quarantined_at IS NOT NULL)
  ) k
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
  RETURN NULL;
END $$;

CREATE TRIGGER runs_facets_insert AFTER INSERT ON "runs" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION run_facets_added();
CREATE TRIGGER runs_facets_delete AFTER DELETE ON "runs" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION run_facets_removed();
CREATE TRIGGER runs_facets_update AFTER UPDATE ON "runs" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION run_facets_changed();

CREATE FUNCTION workload_phases_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO workload_phase_changes (workload, phases)
  SELECT workload, count(*) FROM added WHERE workload IS NOT NULL GROUP BY workload;
  RETURN NULL;
END $$;

CREATE FUNCTION workload_phases_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO workload_phase_changes (workload, phases)
  SELECT workload, -count(*) FROM removed WHERE workload IS NOT NULL GROUP BY workload;
  RETURN NULL;
END $$;

CREATE FUNCTION workload_phases_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO workload_phase_changes (workload, phases)
  SELECT w, sum(n) FROM (
    SELECT o.workload AS w, -1 AS n FROM removed o JOIN added a ON a.id = o.id
    WHERE o.workload IS DISTINCT FROM a.workload AND o.workload IS NOT NULL
    UNION ALL
    SELECT a.workload, 1 FROM removed o JOIN added a ON a.id = o.id
    WHERE o.workload IS DISTINCT FROM a.workload AND a.workload IS NOT NULL
  ) k GROUP BY w;
  RETURN NULL;
END $$;

CREATE TRIGGER phases_workloads_insert AFTER INSERT ON "phases" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION workload_phases_added();
CREATE TRIGGER phases_workloads_delete AFTER DELETE ON "phases" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION workload_phases_removed();
CREATE TRIGGER phases_workloads_update AFTER UPDATE ON "phases" REFERENCING OLD TABLE AS removed NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION workload_phases_changed();

-- The rows stored before these tables.
INSERT INTO run_facet_totals (engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined, runs)
SELECT engine, engine_version, preset, nodes, scenario, data_instance_type, client_instance_type, source_id, verdict, quarantined_at IS NOT NULL, count(*)
FROM runs GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;
INSERT INTO workload_phase_totals (workload, phases)
SELECT workload, count(*) FROM phases WHERE workload IS NOT NULL GROUP BY workload;
