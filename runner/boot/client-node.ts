import { join } from "node:path";
import { ENGINE_BINDINGS } from "../../engines/bindings.js";
import type { ClusterDescription } from "../../model/cluster-description.js";
import { HEARTBEAT_SECONDS, type ReadyMarker, STALE_HEARTBEAT_SECONDS } from "../../model/instance-status.js";
import type { Plan } from "../../model/plan.js";
import { executePlan } from "../execute.js";
import { bindingClasspathDir } from "../java-artifacts.js";
import { ycsbSetup } from "../ycsb-setup.js";
import { clusterTroubles, rollCall } from "./cluster-health.js";
import { type BootEnvironment, EXIT_PERMANENT } from "./environment.js";
import { remoteActions } from "./remote-actions.js";
import type { Reporter } from "./reporter.js";
import type { RunObjects } from "./run-objects.js";

export interface ClientBoot {
  env: BootEnvironment;
  objects: RunObjects;
  reporter: Reporter;
  index: number;
  ycsbLabVersion: string;
  /** How long to wait for the cluster's readiness marker. @default 2 h */
  readyTimeoutMs?: number;
  /** How long a client waits for the others at a barrier. @default 3900 s */
  barrierTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for the leader's marker; a data node that reports failure ends the wait at once, naming it. */
async function awaitCluster(b: ClientBoot, cluster: ClusterDescription): Promise<ReadyMarker> {
  const deadline = Date.now() + (b.readyTimeoutMs ?? 2 * 3_600_000);
  for (let poll = 0; ; poll++) {
    const marker = await b.objects.readyMarker();
    if (marker) return marker;
    if (poll % 5 === 0) {
      const statuses = await b.objects.statuses();
      const failed = [...statuses.values()].find((s) => s.role === "data" && s.stage === "failed");
      if (failed)
        throw Object.assign(
          new Error(
            `data node ${failed.index} failed: ${failed.detail ?? "no reason given"} (ycsb-lab status shows its log tail)`,
          ),
          { permanent: true },
        );
      const nodes = cluster.nodes.map((n) => `${n.index}:${statuses.get(`node-${n.index}`)?.stage ?? "no status"}`);
      b.reporter.log(`waiting for the cluster (nodes ${nodes.join(" ")})`);
    }
    if (Date.now() > deadline)
      throw Object.assign(
        new Error(
          `the cluster published no readiness marker in ${Math.round((b.readyTimeoutMs ?? 7_200_000) / 1000)} s`,
        ),
        { permanent: true },
      );
    await sleep(3000);
  }
}

/** Binding properties whose values live in SSM (e.g. Couchbase's admin password), read with the client's role. */
async function secretProperties(marker: ReadyMarker, region: string): Promise<Record<string, string>> {
  const entries = Object.entries(marker.secretConnection ?? {});
  if (entries.length === 0) return {};
  const { SSMClient, GetParameterCommand } = await import("@aws-sdk/client-ssm");
  const ssm = new SSMClient({ region });
  const out: Record<string, string> = {};
  for (const [property, name] of entries) {
    const r = await ssm.send(new GetParameterCommand({ Name: name, WithDecryption: true }));
    out[property] = r.Parameter?.Value ?? "";
  }
  ssm.destroy();
  return out;
}

/**
 * A client's whole boot after its OS packages: the plan and cluster description from the run's prefix, the
 * cluster's readiness, then the plan run in lock-step with the other clients with the engine's binding from the
 * kit, every result spooled and uploaded. A restart (systemd, or the rehearsal's kill test) resumes after the
 * last finished phase.
 */
export async function bootClient(b: ClientBoot): Promise<number> {
  const { objects, reporter } = b;
  const [cluster, plan] = await Promise.all([objects.cluster(), objects.plan()]);
  checkPlan(plan, cluster, b.index);
  reporter.bills(cluster.billing?.client);
  await reporter.stage(
    "installed",
    `the kit's ${ENGINE_BINDINGS[cluster.engine as keyof typeof ENGINE_BINDINGS].module} binding and YCSB ready`,
  );
  await reporter.stage("waiting", `for the ${cluster.engine} cluster of ${cluster.nodes.length} node(s)`);
  let marker = await awaitCluster(b, cluster);
  const binding = ENGINE_BINDINGS[cluster.engine as keyof typeof ENGINE_BINDINGS];
  const properties = { ...marker.connection, ...(await secretProperties(marker, cluster.region)) };
  const ycsb = ycsbSetup({
    db: binding.dbClass,
    classpath: [join(await bindingClasspathDir(binding.module), "*")],
    properties,
  });
  const useMarker = async (m: ReadyMarker) => {
    marker = m;
    Object.assign(ycsb.properties, m.connection, await secretProperties(m, cluster.region));
  };
  await reporter.stage(
    "ready",
    `cluster formed at ${marker.formedAt}${marker.standIn ? `; stand-in: ${marker.standIn}` : ""}`,
  );
  const troubles = async () => clusterTroubles((await objects.statuses()).values(), new Date());
  const outcome = await executePlan({
    plan,
    runId: objects.runId,
    clientIndex: b.index,
    store: objects.store,
    spoolDir: join(b.env.home, "spool", objects.runId, `client-${b.index}`),
    ycsb,
    actions: remoteActions({
      objects,
      cluster,
      marker: () => marker,
      onMarker: (m) => useMarker(m),
      log: (line) => reporter.log(line),
    }),
    barrierTimeoutMs: b.barrierTimeoutMs ?? 3_900_000,
    ycsbLabVersion: b.ycsbLabVersion,
    ...(marker.standIn ? { standIn: marker.standIn } : {}),
    // A rehearsal runs on this machine: its numbers must not carry the scenario's EC2 types.
    ...(b.env.rehearsal ? { machine: "local (rehearsal)" } : {}),
    provenance: {
      ...(cluster.stack ? { stack: cluster.stack } : {}),
      ...(cluster.ami ? { ami: cluster.ami } : {}),
      kit: cluster.kit,
    },
    log: (line) => reporter.log(line),
    onPhase: async (phase, position, of) => {
      // After a reset the leader publishes the cluster again; every client picks up what it says before its next phase.
      const latest = await objects.readyMarker().catch(() => undefined);
      if (latest && latest.formedAt !== marker.formedAt) await useMarker(latest);
      await reporter.stage("running", phase.kind, { position, of, name: phase.name });
    },
    clusterProblems: troubles,
    // A failed or silent data node ends the run at once, at a barrier or mid-phase, naming the node.
    runProblem: async () => (await troubles())[0],
    clusterRollCall: async (since) => {
      // Bounded by the staleness rule: a node silent that long is named by rollCall itself.
      const deadline = Date.now() + (STALE_HEARTBEAT_SECONDS + HEARTBEAT_SECONDS + 15) * 1000;
      let said = false;
      for (;;) {
        const answer = rollCall((await objects.statuses()).values(), since, new Date());
        if (answer.troubles.length || answer.waitingFor.length === 0 || Date.now() > deadline) return answer.troubles;
        if (!said)
          await reporter.stage(
            "running",
            `operations failed: waiting for data node(s) ${answer.waitingFor.join(", ")} to be heard from`,
            reporter.current?.phase,
          );
        said = true;
        await new Promise((r) => setTimeout(r, 2_000));
      }
    },
    onBarrierWait: async (point, missing, waitedMs) => {
      const last = reporter.current;
      const detail = `at the barrier before phase ${point.index} (${point.name}): waiting ${Math.round(waitedMs / 1000)} s for client(s) ${missing.join(", ")}`;
      await reporter.stage(last?.stage ?? "running", detail, last?.phase);
    },
  });
  if (!outcome.complete) {
    await reporter.failed(`run incomplete: ${outcome.reason}`);
    return EXIT_PERMANENT;
  }
  await reporter.stage(
    "done",
    `${outcome.phasesRun} phase(s) run, ${outcome.phasesSkipped} skipped; results under ${objects.store.uri}/runs/${objects.runId}/`,
  );
  return 0;
}

function checkPlan(plan: Plan, cluster: ClusterDescription, index: number): void {
  const fail = (m: string) => {
    throw Object.assign(new Error(m), { permanent: true });
  };
  if (plan.deployment.engine !== cluster.engine)
    fail(`plan.json is for ${plan.deployment.engine}, cluster.json for ${cluster.engine}`);
  if (plan.deployment.clients !== cluster.clients.length)
    fail(`plan.json is for ${plan.deployment.clients} client(s), cluster.json lists ${cluster.clients.length}`);
  if (index >= cluster.clients.length) fail(`--index ${index}: the run has clients 0..${cluster.clients.length - 1}`);
}
