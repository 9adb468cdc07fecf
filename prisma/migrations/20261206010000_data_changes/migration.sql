-- What each write touched, beside the version it moved data_version to (api/store/data-version.ts recordWrite): an
-- API process drops only the cached answers a write can change (api/store/touched.ts), on every process sharing the
-- database. The last 1,000 changes are kept: a process further behind drops every answer (no semicolon in a comment here,
-- the schema engine splits statements on it).
CREATE TABLE "data_changes" (
  "version" BIGINT NOT NULL PRIMARY KEY,
  "touched" JSONB NOT NULL,
  "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
