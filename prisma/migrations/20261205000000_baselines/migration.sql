-- A run pinned as its configuration's baseline (model/history.ts configurationId: scenario, engine, preset, nodes,
-- instance type): one per configuration, every view can show the difference to it. Gone with its run.
CREATE TABLE "baselines" (
  "configuration" TEXT NOT NULL PRIMARY KEY,
  "run_id" TEXT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "note" TEXT,
  "pinned_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "baselines_run_id_key" ON "baselines"("run_id");
