-- A write recounts the kept groups it touched from the phases it wrote (api/store/aggregates/groups.ts), not from all
-- of a group's phases: each group keeps its state (api/store/aggregates/group-state.ts: its phases' few numbers and
-- its operations' merged histograms, as JSON text), and a dirty group names the phases written since it was counted.
-- A group without a state (every group of a store written before this) is recounted whole the first time it is dirty.
CREATE TABLE "group_states" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "state" TEXT NOT NULL
);

-- Set when runs left or rejoined the group (quarantine, release, delete, reference data replaced): recounted whole.
ALTER TABLE "dirty_groups" ADD COLUMN "whole" BOOLEAN NOT NULL DEFAULT false;

-- The phases a write stored into a dirty group (id as dirty_groups names it), taken with its mark.
CREATE TABLE "dirty_group_phases" (
  "id" TEXT NOT NULL,
  "phase_id" INTEGER NOT NULL,
  PRIMARY KEY ("id", "phase_id")
);
