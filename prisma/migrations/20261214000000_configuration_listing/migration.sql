-- Each configuration keeps its summary without its repeats (head_*) and its repeats' listing (listing_*: counted
-- whole, the first 20 kept) beside the summaries, written at ingest (api/store/aggregates/listing.ts). /sweeps and
-- /repeatability read these instead of taking every repeat of every configuration apart after each write: at 10,000
-- runs that was a fifth of PGlite's time beside one writer (docs/benchmarks.md).
ALTER TABLE "configuration_aggregates" ADD COLUMN "head_valid" JSONB;
ALTER TABLE "configuration_aggregates" ADD COLUMN "head_all" JSONB;
ALTER TABLE "configuration_aggregates" ADD COLUMN "listing_valid" JSONB;
ALTER TABLE "configuration_aggregates" ADD COLUMN "listing_all" JSONB;

-- The rows kept before: the same values from their summaries (a summary of another shape keeps NULL, and the views read
-- it as they did before).
UPDATE "configuration_aggregates" g SET
  "head_valid" = CASE WHEN jsonb_typeof(g.summary_valid) = 'object' THEN (g.summary_valid - 'repeats') || '{"repeats":[]}'::jsonb END,
  "head_all" = CASE WHEN jsonb_typeof(g.summary_all) = 'object' THEN (g.summary_all - 'repeats') || '{"repeats":[]}'::jsonb END,
  "listing_valid" = CASE WHEN jsonb_typeof(g.summary_valid->'repeats') = 'array' THEN jsonb_build_object(
    'repeatCount', jsonb_array_length(g.summary_valid->'repeats'),
    'runCount', (SELECT count(DISTINCT e->>'runId') FROM jsonb_array_elements(g.summary_valid->'repeats') AS e),
    'verdicts', (SELECT coalesce(jsonb_object_agg(v.verdict, v.n), '{}'::jsonb)
                 FROM (SELECT e->>'verdict' AS verdict, count(*) AS n FROM jsonb_array_elements(g.summary_valid->'repeats') AS e GROUP BY 1) v),
    'shown', (SELECT coalesce(jsonb_agg(t.e ORDER BY t.i), '[]'::jsonb)
              FROM jsonb_array_elements(g.summary_valid->'repeats') WITH ORDINALITY AS t(e, i) WHERE t.i <= 20)) END,
  "listing_all" = CASE WHEN jsonb_typeof(g.summary_all->'repeats') = 'array' THEN jsonb_build_object(
    'repeatCount', jsonb_array_length(g.summary_all->'repeats'),
    'runCount', (SELECT count(DISTINCT e->>'runId') FROM jsonb_array_elements(g.summary_all->'repeats') AS e),
    'verdicts', (SELECT coalesce(jsonb_object_agg(v.verdict, v.n), '{}'::jsonb)
                 FROM (SELECT e->>'verdict' AS verdict, count(*) AS n FROM jsonb_array_elements(g.summary_all->'repeats') AS e GROUP BY 1) v),
    'shown', (SELECT coalesce(jsonb_agg(t.e ORDER BY t.i), '[]'::jsonb)
              FROM jsonb_array_elements(g.summary_all->'repeats') WITH ORDINALITY AS t(e, i) WHERE t.i <= 20)) END;
