import type { InstanceStatus } from "../model/instance-status.js";
import type { IamAudit } from "./iam-audit.js";
import type { IamProbe } from "./iam-probes.js";

/** What the results service holds of one phase of the plan, after the run. */
export interface PhaseOutcome {
  index: number;
  name: string;
  kind: string;
  clientsStored: number;
  clients: number;
  verdict: string;
  throughputOpsSec: number;
  reasons: string[];
}

/** What the judgement needs of an instance: whether it still runs, and its own boot log's last lines. */
export interface EndedMachine {
  name: string;
  running: boolean;
  bootLogTail(lines: number): string;
}

export interface RunEvidence {
  phases: PhaseOutcome[];
  /** Each instance's last status. */
  statuses: Map<string, InstanceStatus>;
  machines: EndedMachine[];
  iam: IamAudit & { probes: IamProbe[] };
  /** What instances asked the front for that the rehearsal does not serve. */
  unserved: readonly string[];
  /** Whether the run was still going at the rehearsal's deadline. */
  timedOut: boolean;
}

/** Lines of a boot log given with each instance a timed-out run left unfinished. */
const LOG_LINES = 8;

/**
 * Everything the rehearsal found wrong with a run, a line each: phases not stored by every client, instances failed,
 * clients unfinished, machines that did not power themselves off, IAM calls and probes against the policies, downloads
 * the rehearsal does not serve; and, for a run past its deadline, where each unfinished instance stood with its own
 * log's last lines, so the failure says why on a CI machine nobody can log into (its folders go with the machine).
 */
export function findProblems(e: RunEvidence): string[] {
  const { phases, statuses, machines, iam } = e;
  const problems: string[] = [];
  for (const x of phases)
    if (x.clientsStored < x.clients)
      problems.push(`phase ${x.index} ${x.name}: ${x.clientsStored} of ${x.clients} client result(s) stored`);
  for (const s of statuses.values())
    if (s.stage === "failed") problems.push(`${s.instance} failed: ${s.detail ?? "no reason"}`);
  for (const m of machines) {
    // A failed client is listed once above, with its reason.
    if (m.name.startsWith("client-") && !["done", "failed"].includes(statuses.get(m.name)?.stage ?? ""))
      problems.push(`${m.name} did not finish (${statuses.get(m.name)?.stage ?? "no status"})`);
    if (m.running) problems.push(`${m.name} is still running after the run: it did not power itself off`);
  }
  if (e.timedOut)
    for (const m of machines) {
      const s = statuses.get(m.name);
      if (s?.stage === "done" || s?.stage === "failed") continue;
      const where = s ? `${s.stage}${s.detail ? `: ${s.detail.slice(0, 300)}` : ""}` : "no status";
      problems.push(
        `${m.name} was at "${where}" when the rehearsal timed out; its log ends:\n${m.bootLogTail(LOG_LINES) || "(no log)"}`,
      );
    }
  for (const f of iam.findings)
    problems.push(
      `IAM: ${f.role} ${f.call}: ${f.status === 403 ? "refused by the emulator" : `policy says ${f.decision}`}`,
    );
  for (const x of iam.probes.filter((y) => !y.ok))
    problems.push(
      `IAM probe: ${x.role} could ${x.outcome === "allowed" ? "" : "not "}${x.probe} (expected ${x.expected}, judged by the ${x.judgedBy})`,
    );
  for (const u of new Set(e.unserved)) problems.push(`an instance asked for ${u}, which the rehearsal does not serve`);
  return problems;
}
