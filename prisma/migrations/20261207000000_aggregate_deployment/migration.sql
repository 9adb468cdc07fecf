-- The kept groups' identity is the deployment's (model/aggregate/repeats.ts deploymentIdentity): the stand-in that
-- served instead of the engine and the machines are part of every configuration and peak group, so a rehearsal on a
-- stand-in or on this machine is never averaged with the engine on its instances. The rows kept before were keyed
-- without them: they are emptied here and recomputed, with their phases' group ids, by the rebuild that runs when
-- the store opens (api/store/aggregates/rebuild.ts, groups version 2).
DELETE FROM "dirty_groups";
DELETE FROM "configuration_aggregates";
DELETE FROM "peak_aggregates";
DELETE FROM "aggregate_versions" WHERE "name" = 'groups';

ALTER TABLE "configuration_aggregates" ADD COLUMN "stand_in" TEXT;
ALTER TABLE "configuration_aggregates" ADD COLUMN "data_instance_type" TEXT NOT NULL;
ALTER TABLE "configuration_aggregates" ADD COLUMN "client_instance_type" TEXT NOT NULL;

ALTER TABLE "peak_aggregates" ADD COLUMN "stand_in" TEXT;
ALTER TABLE "peak_aggregates" ADD COLUMN "data_instance_type" TEXT NOT NULL;
ALTER TABLE "peak_aggregates" ADD COLUMN "client_instance_type" TEXT NOT NULL;
