/** The run / phase pickers of the per-run views (latency, time series). */
import { fetchPhaseSeries, fetchRunAudit, fetchRunPage, fetchRunDetail, type PhaseSeries, type PhaseView, type RunDetail } from "../api.js";
import { el, filterSelect, message } from "../ui.js";
import type { ViewContext } from "../view.js";

/** A select stays usable with a few hundred options; the URL can name any run. */
const MAX_OPTIONS = 500;

export async function pickRunAndPhase(ctx: ViewContext): Promise<{ detail: RunDetail; phase: PhaseView; series: PhaseSeries } | null> {
  const p = ctx.state.params;
  // The latest measured runs as options (one page from the API); the URL may name any other run.
  const { runs } = await fetchRunPage({ source: "measured" }, 0, MAX_OPTIONS);
  const runId = p.run ?? runs[0]?.id;
  const form = el("form", { class: "filters" });
  ctx.controls.append(form);
  const options = runs.map((r) => ({ value: r.id, label: `${r.id} · ${r.engine} ${r.preset} ${r.nodes}n` }));
  form.append(filterSelect("run", "run", options, runId, (v) => ctx.setParams({ run: v, phase: undefined, op: undefined }), null));
  if (!runId) {
    ctx.controls.append(message("No run stored yet: ingest one (POST /api/v1/results) and reload."));
    return null;
  }
  const [detail, audit] = await Promise.all([fetchRunDetail(runId), fetchRunAudit(runId)]);
  if (audit.length) ctx.controls.append(auditNote(audit));
  const phases = detail.phases;
  const phase = phases.find((x) => x.name === p.phase) ?? phases.find((x) => x.kind === "workload") ?? phases[0];
  form.append(filterSelect("phase", "phase", phases.map((x) => x.name), phase?.name, (v) => ctx.setParams({ phase: v, op: undefined }), null));
  if (!phase) {
    ctx.controls.append(message(`Run ${runId} has no phases.`));
    return null;
  }
  return { detail, phase, series: await fetchPhaseSeries(detail.run.id, phase.name) };
}

/**
 * The run's audit, one line per action (quarantined, released, deleted: who, when, why). A reason is free text and may
 * hold bidirectional controls: each sits in its own <bdi>, so it cannot reorder the text around it.
 */
function auditNote(entries: Awaited<ReturnType<typeof fetchRunAudit>>): HTMLElement {
  const done = { quarantine: "quarantined", release: "released", delete: "deleted" } as const;
  return el(
    "ul",
    { class: "message info audit", "aria-label": "audit" },
    ...entries.map((e) => el("li", {}, `${done[e.action]} by `, el("bdi", {}, e.actor), ` at ${e.at.replace("T", " ").slice(0, 19)} UTC`, ...(e.reason ? [": ", el("bdi", {}, e.reason)] : []))),
  );
}
