-- A plan's repeats are phases of one run: each phase records which repeat it is.
ALTER TABLE "phases" ADD COLUMN "repeat" INTEGER NOT NULL DEFAULT 0;

-- Phases stored before carry their repeat in the name ("-r<N>") and, from the runner, in the run's repeat.
UPDATE "phases" SET "repeat" = substring("name" from '-r([0-9]+)$')::int WHERE "name" ~ '-r[0-9]+$';
