/**
 * What a configuration keeps beside its summaries (configuration_aggregates head_* and listing_*): the summary without
 * its repeats, and its repeats counted whole with the first REPEATS_LISTED kept. A summary's repeats are one entry per
 * phase counted, most of its bytes (4 MB over 10,000 runs); /sweeps draws none of them and /repeatability lists 20 a
 * configuration, so both read these instead of taking every repeat apart after each write (issue 28: a fifth of
 * PGlite's time beside one writer at 10,000 runs, docs/benchmarks.md). The committed migration
 * 20261214000000_configuration_listing computes the same from the summaries kept before it.
 */
import { REPEATS_LISTED } from "../../../model/api-schemas.js";
import type { ConfigurationSummary, RepeatEntry } from "./summaries.js";

export interface RepeatListing {
  repeatCount: number;
  /** The distinct runs the repeats come from. */
  runCount: number;
  verdicts: Record<string, number>;
  /** The first repeats, in the summary's order (run, then phase). */
  shown: RepeatEntry[];
}

/** The repeats counted whole, the first `listed` kept. */
export function repeatListing(repeats: readonly RepeatEntry[], listed = REPEATS_LISTED): RepeatListing {
  const verdicts: Record<string, number> = {};
  const runs = new Set<string>();
  for (const r of repeats) {
    verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
    runs.add(r.runId);
  }
  return { repeatCount: repeats.length, runCount: runs.size, verdicts, shown: repeats.slice(0, listed) };
}

/** The summary without its repeats (the rest as kept: statistics, latency, verdict, the phases' names). */
export const summaryHead = (s: ConfigurationSummary): ConfigurationSummary => ({ ...s, repeats: [] });
