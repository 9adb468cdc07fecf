import { execFileSync } from "node:child_process";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { instanceSpans, spansCost } from "../../model/run-cost.js";
import { type DashboardRehearsalResult, rehearseDashboard } from "../../rehearse/dashboard.js";
import { ROOT } from "../api/api-helpers.js";
import { handCost } from "../support/hand-cost.js";

// The dashboard stack's service booted from its rendered user-data (the dashboard kit, `ycsb-lab boot --role
// dashboard`), a real PostgreSQL standing for RDS, moto for S3 and Secrets Manager; a quickstart run rehearsed into it
// arrives through the emulated bucket. One node, one client: the smallest quickstart (the suite runs on 2 cores).
let result: DashboardRehearsalResult | undefined;
afterAll(async () => {
  await result?.stop();
});

type Run = {
  run: { id: string; source: { kind: string } | string };
  phases: Array<{
    phase: { kind: string };
    aggregate: { clients: number; expectedClients: number; complete: boolean };
  }>;
};

describe("ycsb-lab rehearse --stack dashboard", () => {
  it("boots the dashboard service from its user-data over PostgreSQL, and a rehearsed quickstart's results appear in it through the emulated bucket", async () => {
    result = await rehearseDashboard({ scenarioStack: "quickstart", nodes: 1, clients: 1, loopbackPrefix: "127.0.14" });
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    const url = result.dashboard.url;
    expect(url).toMatch(/^http:\/\/127\.0\.14\.50:\d+$/);

    // The service's own reports: booted from the kit, migrated the database, served.
    const ready = result.dashboard.statuses.find((s) => s.instance === "dashboard-0");
    expect(ready?.stage).toBe("ready");
    expect(ready?.detail).toMatch(/migrations applied now: 20261122000000_init/);
    expect(ready?.rehearsal?.join(" ")).toMatch(/rehearsal/);

    // The run, every phase with its client, served by the dashboard's API and its page.
    const res = await fetch(`${url}/api/v1/runs/${encodeURIComponent(result.runId)}`);
    expect(res.status).toBe(200);
    const run = (await res.json()) as Run;
    expect(run.phases.length).toBeGreaterThanOrEqual(3);
    for (const p of run.phases) expect(p.aggregate).toMatchObject({ clients: 1, expectedClients: 1, complete: true });
    expect((await fetch(`${url}/`)).status).toBe(200);
    // Writes need the token the service read from Secrets Manager.
    expect(
      (
        await fetch(`${url}/api/v1/results`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "[]",
        })
      ).status,
    ).toBe(401);

    // Stored in the PostgreSQL standing for RDS, not in an embedded store.
    const base = execFileSync("bash", [`${ROOT}scripts/setup-postgres.sh`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    const db = new URL(base);
    db.pathname = `/${result.dashboard.database}`;
    const client = new pg.Client({ connectionString: db.toString() });
    await client.connect();
    const rows = (await client.query("SELECT id FROM runs WHERE source_id = 'measured'")).rows as Array<{ id: string }>;
    expect(rows.map((r) => r.id)).toEqual([result.runId]);

    // What a realized cost is priced from: each machine's span as its own boot status markers wrote it from inside
    // its OS container (first stage to last word), stored by the service's bucket import. The last markers (the
    // power-off) may reach the import a poll after the run's results: wait for them, then they must be equal.
    const fromMarkers = instanceSpans(result.statuses)
      .map((s) => ({ instance: s.instance, role: s.role, startedAt: s.startedAt, endedAt: s.endedAt }))
      .sort((a, b) => a.instance.localeCompare(b.instance));
    expect(fromMarkers.map((s) => s.instance)).toEqual(["client-0", "node-0"]);
    const stored = async () =>
      (
        await client.query(
          "SELECT instance, role, started_at, ended_at FROM instance_spans WHERE run_id = $1 ORDER BY instance",
          [result!.runId],
        )
      ).rows.map((r: { instance: string; role: string; started_at: Date; ended_at: Date }) => ({
        instance: r.instance,
        role: r.role,
        startedAt: r.started_at.toISOString(),
        endedAt: r.ended_at.toISOString(),
      }));
    const deadline = Date.now() + 120_000;
    let spans = await stored();
    while (JSON.stringify(spans) !== JSON.stringify(fromMarkers) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 2_000));
      spans = await stored();
    }
    // Each machine's markers carry its role's volumes and address from the stack's cluster.json (the boot's Reporter),
    // and its stored span keeps them: what its realized cost bills beside its hours (model/instance-billing.ts).
    const billingOf = new Map(result.statuses.map((s) => [s.instance, s.billing]));
    for (const s of fromMarkers) expect(billingOf.get(s.instance), s.instance).toBeDefined();
    const storedBilling = (
      await client.query(
        "SELECT instance, volumes, public_ipv4 FROM instance_spans WHERE run_id = $1 ORDER BY instance",
        [result.runId],
      )
    ).rows;
    await client.end();
    expect(spans).toEqual(fromMarkers);
    expect(storedBilling).toEqual(
      fromMarkers.map((s) => ({
        instance: s.instance,
        volumes: billingOf.get(s.instance)?.volumes,
        public_ipv4: billingOf.get(s.instance)?.publicIpv4,
      })),
    );

    // A rehearsed run's documents record the machine they ran on ("local (rehearsal)"), which has no price: the API
    // says so, naming it, rather than price this machine as the stack's instances. The bill the same markers make at
    // the stack's own types (quickstart: model/scenarios.ts, m6i.large data node and c6i.large client), priced from
    // the spans the service stored, must equal a hand computation from the containers' markers at the vendors'
    // prices (test/support/hand-cost.ts): hours, volumes and address of each machine.
    const answered = (await (await fetch(`${url}/api/v1/runs/${encodeURIComponent(result.runId)}`)).json()) as {
      cost: { priced: boolean; statement?: string };
    };
    expect(answered.cost).toMatchObject({ priced: false, statement: expect.stringMatching(/local \(rehearsal\)/) });
    const stackTypes = { data: "m6i.large", client: "c6i.large" } as const;
    const billed = spansCost(
      spans.map((sp) => ({
        ...sp,
        role: sp.role as "data" | "client",
        instanceType: stackTypes[sp.role as "data" | "client"],
        billing: billingOf.get(sp.instance) ?? null,
      })),
    );
    if (!("usd" in billed)) throw new Error(billed.statement);
    for (const s of result.statuses.filter((x) => x.role === "data" || x.role === "client")) {
      const byHand = handCost(s, stackTypes[s.role as "data" | "client"]);
      expect(billed.instances.find((i) => i.instance === s.instance)?.usd, s.instance).toBeCloseTo(byHand.usd, 12);
    }

    // Every call the service made (kit, service description, secrets, the bucket's import) allowed by its role.
    const role = Object.keys(result.iam.byRole).find((r) => r.includes("service-role"));
    expect(role).toBeDefined();
    expect(result.iam.byRole[role!]).toBeGreaterThan(3);
    expect(result.iam.findings).toEqual([]);
  }, 900_000);
});
