/** The per-phase totals ingest keeps for the read side, and each run's worst verdict. */
import {
  clientsReported,
  lessSevere,
  phaseRuntimeMs,
  phaseThroughput,
  worstVerdict,
} from "../../model/aggregate/rules.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { SqlWriter } from "../db/pg-direct.js";

/**
 * The totals the read side uses, kept by the model's rules (model/aggregate/rules.ts) for every phase this
 * transaction added clients to: summed throughput, clients reported, the slowest client's runtime and the worst
 * verdict; then each touched run's worst verdict over its phases. The touched phases are locked first (in id order,
 * no deadlock) and read in a later statement, whose snapshot sees every client a concurrent ingest committed.
 */
export async function keepTotals(tx: SqlWriter, phaseIds: number[]): Promise<void> {
  const touched = [...phaseIds].sort((a, b) => a - b);
  if (touched.length === 0) return;
  await tx.$queryRaw`SELECT id FROM phases WHERE id IN (${Prisma.join(touched)}) ORDER BY id FOR UPDATE`;
  const clients = await tx.$queryRaw<
    {
      phaseId: number;
      clientIndex: number;
      clients: number;
      throughputOpsSec: number;
      runtimeMs: number;
      verdict: string | null;
    }[]
  >`
    SELECT c.phase_id AS "phaseId", c.client_index AS "clientIndex", p.clients, c.throughput_ops_sec AS "throughputOpsSec", c.runtime_ms AS "runtimeMs", v.verdict
    FROM unnest(${touched}::int[]) AS t(id)
    CROSS JOIN LATERAL (SELECT p.clients FROM phases p WHERE p.id = t.id OFFSET 0) p
    CROSS JOIN LATERAL (SELECT * FROM client_results c WHERE c.phase_id = t.id OFFSET 0) c
    LEFT JOIN LATERAL (SELECT v.verdict FROM validity_verdicts v WHERE v.client_result_id = c.id OFFSET 0) v ON true`;
  const byPhase = new Map<number, typeof clients>();
  for (const c of clients) {
    const list = byPhase.get(Number(c.phaseId));
    if (list) list.push(c);
    else byPhase.set(Number(c.phaseId), [c]);
  }
  const totals = [...byPhase].map(([id, cs]) => ({
    id,
    throughput_sum: phaseThroughput(cs),
    clients_reported: clientsReported(
      cs.map((c) => c.clientIndex),
      cs[0]!.clients,
    ),
    runtime_ms: phaseRuntimeMs(cs),
    verdict: worstVerdict(cs.map((c) => c.verdict)),
  }));
  const runIds = await tx.$queryRaw<{ id: number; run_id: string }[]>`
    UPDATE phases p SET throughput_sum = x.throughput_sum, clients_reported = x.clients_reported, runtime_ms = x.runtime_ms, verdict = x.verdict
    FROM jsonb_to_recordset(${JSON.stringify(totals)}::jsonb) AS x(id int, throughput_sum float8, clients_reported int, runtime_ms float8, verdict text)
    WHERE p.id = x.id
    RETURNING p.id, p.run_id`;
  // A run's verdict is the worst of its phases'. Verdicts only ever get worse as clients report (a stored result never
  // changes), so each touched run is raised to the worst of the phases touched now: no read of its other phases and
  // no lock unless it changes (concurrent batches of one run stay concurrent).
  const verdictOf = new Map(totals.map((t) => [t.id, t.verdict]));
  const byRun = new Map<string, string[]>();
  for (const r of runIds) byRun.set(r.run_id, [...(byRun.get(r.run_id) ?? []), verdictOf.get(Number(r.id))!]);
  const raises = [...byRun]
    .map(([id, vs]) => ({ id, verdict: worstVerdict(vs) }))
    .filter((r) => r.verdict !== "valid")
    .map((r) => ({ ...r, below: lessSevere(r.verdict) }))
    .sort((a, b) => a.id.localeCompare(b.id));
  if (raises.length) {
    await tx.$executeRaw`
      UPDATE runs r SET verdict = x.verdict FROM jsonb_to_recordset(${JSON.stringify(raises)}::jsonb) AS x(id text, verdict text, below jsonb)
      WHERE r.id = x.id AND x.below ? r.verdict`;
  }
}
