import { type InstanceBilling, InstanceBillingSchema } from "../../model/instance-billing.js";
import type { InstanceStatus } from "../../model/instance-status.js";
import { checkAgainst } from "../../model/result-validation.js";
import { instanceSpans, type TypedSpan } from "../../model/run-cost.js";
import { Prisma } from "../../prisma/generated/client.js";
import type { Db } from "../db/client.js";
import { sqlReader } from "../db/pg-direct.js";
import { noteWrite, recordWrite } from "./data-version.js";
import { touchedRuns } from "./touched-runs.js";

/** The machines of a run's roles as it recorded them; "local" names no instance type. */
export interface RunMachines {
  dataInstanceType: string;
  clientInstanceType: string;
}

const typeOf = (run: RunMachines, role: "data" | "client") => {
  const t = role === "data" ? run.dataInstanceType : run.clientInstanceType;
  return t === "local" ? null : t;
};

/**
 * Stores one instance's span from its latest status marker (model/run-cost.ts instanceSpans), replacing the one
 * stored before: a heartbeat moves its end. A dashboard's marker is no part of the run's bill: nothing is stored.
 */
export async function storeSpan(db: Db, runId: string, run: RunMachines, status: InstanceStatus): Promise<boolean> {
  const [span] = instanceSpans([status]);
  if (!span) return false;
  const row = {
    role: span.role,
    instanceType: typeOf(run, span.role),
    startedAt: new Date(span.startedAt),
    endedAt: new Date(span.endedAt),
    // What the marker says the instance is billed for beside its hours; DbNull when it says nothing (an older marker).
    volumes: status.billing ? status.billing.volumes : Prisma.DbNull,
    publicIpv4: status.billing ? status.billing.publicIpv4 : null,
  };
  // A write like any other: the cached answers about the run (its page, /capacity) are dropped (data-version.ts).
  const touched = { runs: await touchedRuns(db, [runId]) };
  await db.$transaction(async (tx) => {
    await tx.instanceSpan.upsert({
      where: { runId_instance: { runId, instance: span.instance } },
      create: { runId, instance: span.instance, ...row },
      update: row,
    });
    await recordWrite(tx, touched);
  });
  noteWrite(db, touched);
  return true;
}

/** A stored span's row. */
interface StoredSpan {
  runId: string;
  instance: string;
  role: string;
  instanceType: string | null;
  startedAt: Date;
  endedAt: Date;
  volumes: unknown;
  publicIpv4: boolean | null;
}

/** Each run's stored spans, by run id, in instance order. */
export async function spansOf(db: Db, runIds: readonly string[]): Promise<Map<string, TypedSpan[]>> {
  const out = new Map<string, TypedSpan[]>();
  if (runIds.length === 0) return out;
  // On the pool directly (api/db/pg-direct.ts): a run's page and compare ask this for every run they show.
  const rows = await sqlReader(db).$queryRaw<StoredSpan[]>`
    SELECT run_id AS "runId", instance, role, instance_type AS "instanceType", started_at AS "startedAt",
           ended_at AS "endedAt", volumes, public_ipv4 AS "publicIpv4"
    FROM instance_spans WHERE run_id = ANY(${[...runIds]}::text[]) ORDER BY run_id, instance`;
  for (const r of rows) {
    const span: TypedSpan = {
      instance: r.instance,
      role: r.role === "client" ? "client" : "data",
      instanceType: r.instanceType,
      startedAt: r.startedAt.toISOString(),
      endedAt: r.endedAt.toISOString(),
      billing: storedBilling(r.volumes, r.publicIpv4),
    };
    out.set(r.runId, [...(out.get(r.runId) ?? []), span]);
  }
  return out;
}

/** A span's stored volumes and address as the marker said them; null when it said nothing or they are not the shape. */
function storedBilling(volumes: unknown, publicIpv4: boolean | null): InstanceBilling | null {
  if (volumes === null || publicIpv4 === null) return null;
  const billing = { volumes, publicIpv4 };
  return checkAgainst(InstanceBillingSchema, billing).length === 0 ? (billing as InstanceBilling) : null;
}
