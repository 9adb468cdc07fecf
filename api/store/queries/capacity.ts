/** GET /capacity: each configuration's sustainable throughput under its SLO over repeats, with its price. */

import {
  addLeftOut,
  deploymentIdentity,
  isComplete,
  type LeftOut,
  type OverRepeats,
  overRepeatsOf,
  PER_REPEAT_PROPERTIES,
  worstVerdict,
} from "../../../model/aggregate/index.js";
import {
  type CapacityResult,
  type ConfigurationPrice,
  capacityPrice,
  capacityResult,
  configurationPrice,
  judgeSteps,
  type StoredStep,
} from "../../../model/capacity-result.js";
import { CapacityStepSchema } from "../../../model/capacity-schema.js";
import type { StepClient } from "../../../model/capacity-step.js";
import { type CapacityStep, phaseNameWithoutRepeat } from "../../../model/plan.js";
import { schemaProblems } from "../../../model/plan-schema.js";
import type { TypedSpan } from "../../../model/run-cost.js";
import { Prisma } from "../../../prisma/generated/client.js";
import type { Db } from "../../db/client.js";
import { sqlReader } from "../../db/pg-direct.js";
import { spansOf } from "../instance-spans.js";
import { storedObject } from "../stored-values.js";
import { type PhaseSummaryRow, phaseSummaries, type Queryable, type RunFilters } from "./filters.js";
import { groupBy, NO_LEFT_OUT, phaseReasons, pushTo, storedOperation } from "./phase-groups.js";

/** One search of one run (a capacity group), judged from its steps' stored results. */
export interface CapacitySearchRun {
  runId: string;
  /** The run's own repeat and the plan's (the group's "-r<N>"). */
  runRepeat: number;
  repeat: number;
  /** The worst verdict of the steps that held: the sustainable figure stands on them. */
  verdict: string;
  reasons: string[];
  result: CapacityResult;
}

export interface CapacityConfiguration {
  engine: string;
  engineVersion: string;
  preset: string;
  nodes: number;
  scenario: string;
  workload: string | null;
  sourceKind: string;
  sourceId: string;
  standIn: string | null;
  instanceTypes: { data: string; client: string };
  clients: number;
  /** The search's name without its repeat suffix (the plan's `<test>-cap`). */
  search: string;
  slo: CapacityResult["slo"];
  sustainable: OverRepeats;
  price: CapacityResult["price"];
  verdict: string;
  reasons: string[];
  leftOut: LeftOut;
  runs: CapacitySearchRun[];
}

type StepRow = PhaseSummaryRow & { capacity: CapacityStep; properties: [string, unknown][] };

/**
 * Every capacity search the filters select, grouped into configurations (the deployment, workload, search and SLO):
 * each search's result from its steps' stored client results (merged histograms, model/capacity-result.ts), and the
 * sustainable throughput as the mean over repeats with its CI and n. A search with a step some client never reported
 * is incomplete; with `include=valid` (default) one whose held steps were judged invalid is left out and counted.
 */
export async function capacity(
  db: Db,
  f: RunFilters,
): Promise<{ configurations: CapacityConfiguration[]; leftOut: LeftOut }> {
  const rows = await stepRows(db, f);
  const clients = await stepClients(
    db,
    rows.map((r) => r.phaseId),
  );
  const spans = await spansOf(db, [...new Set(rows.map((r) => r.runId))]);
  const searches = groupBy(rows, (r) => [r.runId, r.capacity.group]).map((g) => g.rows);
  const judged = searches.map((steps) => judgeSearch(steps, clients, spans.get(steps[0]!.runId) ?? []));
  const reasons = await phaseReasons(
    db,
    judged.flatMap((s) => s.suspect),
  );
  let total = NO_LEFT_OUT;
  const configurations = groupBy(judged, (s) => s.key)
    .map(({ rows: group }) => {
      const counted = group.filter((s) => s.complete && (f.include === "all" || s.verdict !== "invalid"));
      const leftOut = {
        invalid: group.filter((s) => s.complete && !counted.includes(s)).length,
        incomplete: group.filter((s) => !s.complete).length,
      };
      total = addLeftOut(total, leftOut);
      return configurationOf(group[0]!, counted, leftOut, reasons);
    })
    .filter((c): c is CapacityConfiguration => c !== undefined)
    .sort((a, b) => JSON.stringify(sortKey(a)).localeCompare(JSON.stringify(sortKey(b))));
  return { configurations, leftOut: total };
}

const sortKey = (c: CapacityConfiguration) => [c.engine, c.preset, c.nodes, c.instanceTypes.data, c.scenario, c.search];

function storedCapacity(value: unknown) {
  const o = storedObject(value);
  return o && schemaProblems(CapacityStepSchema, o).length === 0 ? (o as unknown as CapacityStep) : null;
}

/** The properties that make a configuration (model/aggregate/repeats.ts PER_REPEAT_PROPERTIES left out), sorted. */
function configuredProperties(value: unknown): [string, unknown][] {
  return Object.entries(storedObject(value) ?? {})
    .filter(([k]) => !PER_REPEAT_PROPERTIES.includes(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The measured steps of every capacity search the filters select, with the step each phase carries. */
async function stepRows(db: Queryable, f: RunFilters): Promise<StepRow[]> {
  const rows = await phaseSummaries(db, f, [Prisma.sql`p.capacity IS NOT NULL`]);
  if (rows.length === 0) return [];
  const stored = await sqlReader(db).$queryRaw<{ id: number; capacity: unknown; properties: unknown }[]>`
    SELECT id, capacity, properties FROM phases WHERE id = ANY(${rows.map((r) => r.phaseId)}::int[])`;
  const byId = new Map(stored.map((s) => [Number(s.id), s]));
  return rows.flatMap((r) => {
    const s = byId.get(r.phaseId);
    const capacity = storedCapacity(s?.capacity);
    return capacity?.role ? [{ ...r, capacity, properties: configuredProperties(s?.properties) }] : [];
  });
}

/** Every client's result of these phases as a step reads it (throughput, counts, returns, HDR histograms). */
async function stepClients(db: Queryable, phaseIds: readonly number[]): Promise<Map<number, StepClient[]>> {
  const out = new Map<number, StepClient[]>();
  if (phaseIds.length === 0) return out;
  const rows = await sqlReader(db).$queryRaw<Record<string, unknown>[]>`
    SELECT c.phase_id AS "phaseId", c.client_index AS "clientIndex", c.throughput_ops_sec AS "throughputOpsSec",
           o.operation, o.count, o.avg_us AS "avgUs", o.min_us AS "minUs", o.max_us AS "maxUs",
           o.percentiles_us AS "percentilesUs", o.returns, o.hdr_histogram AS "hdrHistogram"
    FROM client_results c LEFT JOIN operation_stats o ON o.client_result_id = c.id
    WHERE c.phase_id = ANY(${[...phaseIds]}::int[]) ORDER BY c.phase_id, c.client_index`;
  const byClient = new Map<
    string,
    { phaseId: number; client: StepClient & { hdrHistograms: Record<string, string> } }
  >();
  for (const r of rows) {
    const key = `${r.phaseId}/${r.clientIndex}`;
    let entry = byClient.get(key);
    if (!entry) {
      const client = {
        result: { overall: { throughputOpsSec: Number(r.throughputOpsSec) }, operations: {} },
        hdrHistograms: {},
      };
      entry = { phaseId: Number(r.phaseId), client };
      byClient.set(key, entry);
      pushTo(out, entry.phaseId, client);
    }
    if (typeof r.operation !== "string") continue;
    for (const [operation, input] of storedOperation(r as Parameters<typeof storedOperation>[0])) {
      const returns = storedObject(r.returns) as Record<string, number> | null;
      entry.client.result.operations[operation] = { ...input, returns: returns ?? {} };
      if (input.hdrHistogram) entry.client.hdrHistograms[operation] = input.hdrHistogram;
    }
  }
  return out;
}

interface JudgedSearch {
  key: unknown[];
  row: StepRow;
  complete: boolean;
  verdict: string;
  suspect: number[];
  run: Omit<CapacitySearchRun, "reasons">;
}

/** One run's search: its steps judged in order, its verdict from the steps that held. */
function judgeSearch(steps: StepRow[], clients: Map<number, StepClient[]>, spans: readonly TypedSpan[]): JudgedSearch {
  const first = steps[0]!;
  const search = first.capacity.search;
  const stored: StoredStep[] = steps.map((s) => ({
    step: s.capacity.step,
    role: s.capacity.role!,
    target: s.target,
    clients: clients.get(s.phaseId) ?? [],
  }));
  const judged = judgeSteps(search, stored);
  const result = capacityResult(
    first.capacity.group,
    search,
    judged,
    configurationPrice(first.dataInstanceType, first.nodes, spans),
  );
  const held = steps.filter((s) => judged.find((j) => j.step === s.capacity.step)?.pass);
  const suspect = held.filter((s) => s.verdict !== "valid");
  const group = phaseNameWithoutRepeat(first.capacity.group);
  return {
    key: [
      ...deploymentIdentity(first),
      first.workload,
      first.clients,
      first.threadsPerClient,
      group,
      JSON.stringify(search.slo),
      first.properties,
    ],
    row: first,
    complete: steps.every((s) => isComplete(s)),
    verdict: worstVerdict(held.map((s) => s.verdict)),
    suspect: suspect.map((s) => s.phaseId),
    run: {
      runId: first.runId,
      runRepeat: first.runRepeat,
      repeat: first.repeat,
      verdict: worstVerdict(held.map((s) => s.verdict)),
      result,
    },
  };
}

/** The mean of the runs' realized $/h when every counted run has one, else the on-demand table's (saying which). */
function priceOverRepeats(r: StepRow, counted: readonly JudgedSearch[]): ConfigurationPrice {
  const prices = counted.map((s) => s.run.result.price);
  const realized = prices.flatMap((p) => (p.priced && p.basis === "realized" ? [p.usdPerHour] : []));
  if (realized.length > 0 && realized.length === prices.length) {
    return { usdPerHour: realized.reduce((a, x) => a + x, 0) / realized.length, basis: "realized" };
  }
  return configurationPrice(r.dataInstanceType, r.nodes);
}

function configurationOf(
  first: JudgedSearch,
  counted: JudgedSearch[],
  leftOut: LeftOut,
  reasons: ReadonlyMap<number, string[]>,
): CapacityConfiguration | undefined {
  if (counted.length === 0) return undefined;
  const r = first.row;
  const sustainable = overRepeatsOf(
    r.sourceId,
    counted.map((s) => s.run.result.sustainableOpsSec),
  );
  const price = capacityPrice(sustainable.mean ?? 0, priceOverRepeats(r, counted));
  const reasonsOf = (s: JudgedSearch) => [...new Set(s.suspect.flatMap((id) => reasons.get(id) ?? []))].slice(0, 5);
  return {
    engine: r.engine,
    engineVersion: r.engineVersion,
    preset: r.preset,
    nodes: r.nodes,
    scenario: r.scenario,
    workload: r.workload,
    sourceKind: r.sourceKind,
    sourceId: r.sourceId,
    standIn: r.standIn ?? null,
    instanceTypes: { data: r.dataInstanceType, client: r.clientInstanceType },
    clients: r.clients,
    search: phaseNameWithoutRepeat(r.capacity.group),
    slo: r.capacity.search.slo,
    sustainable,
    price,
    verdict: worstVerdict(counted.map((s) => s.verdict)),
    reasons: [...new Set(counted.flatMap(reasonsOf))].slice(0, 5),
    leftOut,
    runs: counted.map((s) => ({ ...s.run, reasons: reasonsOf(s) })),
  };
}
