-- One counter for everything the read views show: every write (ingest that stored something, quarantine, delete,
-- reference load) adds one, in its own transaction. The API keeps answers of read routes until it moves
-- (api/plugins/app/response-cache.ts), so every API process sees a write at once.
CREATE TABLE "data_version" (
  "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
  "version" BIGINT NOT NULL
);
INSERT INTO "data_version" ("id", "version") VALUES (1, 0);
