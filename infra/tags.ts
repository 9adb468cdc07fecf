/** Tags on every resource: who owns it, which run and scenario it belongs to, when it may be deleted. */
export interface RunTags {
  scenario: string;
  runId: string;
  owner: string;
  /** ISO date (YYYY-MM-DD) after which a sweeper may delete the resources. */
  expiry: string;
}

export function runTags(t: RunTags, extra: Record<string, string> = {}): Record<string, string> {
  return {
    "ycsb-lab:scenario": t.scenario,
    "ycsb-lab:run-id": t.runId,
    "ycsb-lab:owner": t.owner,
    "ycsb-lab:expiry": t.expiry,
    ...extra,
  };
}

/** Problems with run tags, each naming its field (empty when fine). */
export function checkRunTags(t: RunTags): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  // S3 keys, IAM names and tags all carry the run id: keep it to a safe alphabet.
  if (!/^[a-z0-9][a-z0-9-]{0,40}$/.test(t.runId ?? ""))
    problems.push({
      field: "runId",
      message: `lower-case letters, digits and dashes, at most 41 characters, got "${t.runId}"`,
    });
  if (!t.owner) problems.push({ field: "owner", message: "name who owns (and pays for) this run" });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(t.expiry ?? "") || Number.isNaN(Date.parse(t.expiry)))
    problems.push({ field: "expiry", message: `an ISO date YYYY-MM-DD, got "${t.expiry}"` });
  return problems;
}
