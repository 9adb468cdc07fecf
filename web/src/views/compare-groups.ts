/**
 * What Compare sets side by side: runs, with runs stored as repeats of one configuration (the same deployment, run
 * again: distinct run.repeat) pooled into one entry, so their spread is the noise the differences are read against;
 * and what makes a comparison unequal (loads, scales, machines, sources, stand-ins), said in the chart's title and
 * note. Pure.
 */
import { peakLevelOverRepeats, selectPhases, worstVerdict } from "../../../model/aggregate/rules.js";
import { phaseNameWithoutRepeat } from "../../../model/plan.js";
import type { PhaseView, RunDetail } from "../api.js";
import type { PointVerdict } from "../verdicts.js";

export interface CompareEntry {
  /** The first run's id: the entry's key in the URL (ref) and in the table. */
  id: string;
  runs: RunDetail[];
  /** The phases compared, every run's: of one workload, the repeats at their peak load level or at the level named. */
  phases: PhaseView[];
  verdict: PointVerdict;
}

/**
 * The phases of a run compared: of one workload, the repeats at the load level of the highest mean (the rule of every
 * view, so the runs list and compare show one number for a run), or each repeat at the level named.
 */
export function comparedPhases(d: RunDetail, workload: string | undefined, level: string | undefined): PhaseView[] {
  return comparedPhasesOf([d], workload, level);
}

/** comparedPhases over runs pooled as repeats: the peak level is the one of the highest mean over all of them. */
function comparedPhasesOf(runs: readonly RunDetail[], workload: string | undefined, level: string | undefined) {
  const work = runs.flatMap((d) => d.phases.filter((p) => p.kind === "workload"));
  const w = workload ?? work[0]?.workload;
  const ofWorkload = work.filter((p) => (p.workload ?? p.name) === w || p.name === w);
  if (level) return ofWorkload.filter((p) => phaseNameWithoutRepeat(p.name) === level);
  const { counted } = selectPhases(ofWorkload, "all");
  return peakLevelOverRepeats(counted).level;
}

/** What two runs must share to be repeats of one configuration (a stand-in or another scale is another thing measured). */
export function repeatIdentity(d: RunDetail): string {
  const r = d.run;
  return JSON.stringify([
    r.scenario,
    r.engine,
    r.engineVersion,
    r.preset,
    r.nodes,
    r.instanceTypes.data,
    r.instanceTypes.client,
    r.standIn ?? null,
    r.source.kind,
    r.source.seed ?? null,
    r.records,
  ]);
}

/**
 * Entries in the order asked: runs of one identity with distinct run.repeat indexes are one entry (stored repeats);
 * runs of one identity with the same index stay apart (two runs of a deployment someone wants to tell apart).
 */
export function compareEntries(
  details: readonly RunDetail[],
  workload: string | undefined,
  level: string | undefined,
  pool: boolean,
): CompareEntry[] {
  const groups = new Map<string, RunDetail[]>();
  for (const d of details) {
    const key = repeatIdentity(d);
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const pooled = (list: RunDetail[]) =>
    pool && list.length > 1 && new Set(list.map((d) => d.run.repeat)).size === list.length;
  const entries: CompareEntry[] = [];
  const seen = new Set<string>();
  for (const d of details) {
    const list = groups.get(repeatIdentity(d))!;
    const members = pooled(list) ? list : [d];
    if (seen.has(members[0]!.run.id)) continue;
    seen.add(members[0]!.run.id);
    const phases = comparedPhasesOf(members, workload, level);
    entries.push({
      id: members[0]!.run.id,
      runs: members,
      phases,
      verdict: {
        verdict: worstVerdict(phases.map((p) => p.verdict)),
        reasons: [...new Set(phases.flatMap((p) => p.reasons))],
      },
    });
  }
  return entries;
}

/** The reference: the one asked for, else the baseline's entry, else the first not judged invalid, else the first. */
export function referenceEntry(
  entries: readonly CompareEntry[],
  ref: string | undefined,
  baselineIds: ReadonlySet<string>,
): CompareEntry {
  const byRun = (id: string) => entries.find((e) => e.runs.some((r) => r.run.id === id));
  const asked = ref ? byRun(ref) : undefined;
  if (asked) return asked;
  const valid = entries.filter((e) => e.verdict.verdict !== "invalid");
  return valid.find((e) => e.runs.some((r) => baselineIds.has(r.run.id))) ?? valid[0] ?? entries[0]!;
}

/** The total client threads (and target) of each entry's compared phases, "16" or "8 at 300 ops/s". */
export function entryLoad(e: CompareEntry): string {
  const loads = [
    ...new Set(
      e.phases.map((p) => `${p.threadsPerClient * p.clients}${p.target === null ? "" : ` at ${p.target} ops/s`}`),
    ),
  ];
  return loads.join(" / ") || "–";
}

/**
 * What differs between the entries beyond the databases: each a line a reader must see before a number (the loads,
 * the record counts, the machines, the sources, the stand-ins). Empty when they are alike.
 */
export function unequalSetups(entries: readonly CompareEntry[]): string[] {
  const out: string[] = [];
  const differ = (f: (e: CompareEntry) => string) => {
    const values = entries.map(f);
    return new Set(values).size > 1 ? values : null;
  };
  const loads = differ(entryLoad);
  if (loads) out.push(`unequal loads: ${loads.map((l) => `${l}${/\d$/.test(l) ? " threads" : ""}`).join(" vs ")}`);
  const records = differ((e) =>
    e.runs[0]!.run.records === null ? "not stated" : e.runs[0]!.run.records!.toLocaleString("en-US"),
  );
  if (records) out.push(`unequal data sets: ${records.join(" vs ")} records`);
  const machines = differ((e) => e.runs[0]!.run.instanceTypes.data);
  if (machines) out.push(`different machines: ${machines.join(" vs ")}`);
  const sources = differ((e) =>
    e.runs[0]!.run.source.kind === "published" ? `published (seed ${e.runs[0]!.run.source.seed ?? "?"})` : "measured",
  );
  if (sources) out.push(`published figures beside measured runs: ${sources.join(" vs ")}`);
  const standIns = differ((e) => e.runs[0]!.run.standIn ?? "the engine itself");
  if (standIns) out.push(`stand-ins: ${standIns.join(" vs ")}`);
  return out;
}
