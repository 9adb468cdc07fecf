/** The run / phase pickers of the per-run views (latency, time series): narrowed by scenario and engine, or a run id typed. */
import {
  allInOrder,
  fetchFacets,
  fetchPhaseSeries,
  fetchRunAudit,
  fetchRunDetail,
  fetchRunPage,
  type PhaseSeries,
  type PhaseView,
  type RunDetail,
} from "../api.js";
import { el, filterInput, filterSelect, message } from "../ui.js";
import type { ViewContext } from "../view.js";

/** A select stays usable with a few hundred options; the filters narrow it and the id box reaches any run. */
const MAX_OPTIONS = 200;

export async function pickRunAndPhase(
  ctx: ViewContext,
): Promise<{ detail: RunDetail; phase: PhaseView; series: PhaseSeries } | null> {
  const p = ctx.state.params;
  // The latest measured runs of the scenario and engine chosen as options (one page from the API); any run by its id.
  // A run the URL names is read beside the list, not after it: the chart waits on the run, not on the options.
  const named = p.run ? fetchRunDetail(p.run) : null;
  named?.catch(() => undefined);
  const [{ runs, total }, facets] = await allInOrder([
    fetchRunPage({ source: "measured", scenario: p.scenario, engine: p.engine }, 0, MAX_OPTIONS),
    fetchFacets(),
  ]);
  const runId = p.run ?? runs[0]?.id;
  const form = el("form", { class: "filters" });
  ctx.controls.append(form);
  const options = runs.map((r) => ({ value: r.id, label: `${r.id} · ${r.engine} ${r.preset} ${r.nodes}n` }));
  const values = (f: readonly { value: string | number }[]) => f.map((x) => String(x.value));
  form.append(
    filterSelect("scenario", "scenario", values(facets.scenarios), p.scenario, (v) =>
      ctx.setParams({ scenario: v, run: undefined, phase: undefined, op: undefined }),
    ),
    filterSelect("engine", "engine", values(facets.engines), p.engine, (v) =>
      ctx.setParams({ engine: v, run: undefined, phase: undefined, op: undefined }),
    ),
    filterSelect(
      "run",
      `run (${total > runs.length ? `the latest ${runs.length} of ${total}` : `${total}`})`,
      options,
      runId,
      (v) => ctx.setParams({ run: v, phase: undefined, op: undefined }),
      null,
    ),
    filterInput(
      "find",
      "or a run id",
      undefined,
      (v) => v && ctx.setParams({ run: v, phase: undefined, op: undefined }),
    ),
  );
  if (!runId) {
    ctx.controls.append(message("No run stored yet: ingest one (POST /api/v1/results) and reload."));
    return null;
  }
  const [detail, audit] = await Promise.all([named ?? fetchRunDetail(runId), fetchRunAudit(runId)]);
  if (audit.length) ctx.controls.append(auditNote(audit));
  const phases = detail.phases;
  const phase = phases.find((x) => x.name === p.phase) ?? phases.find((x) => x.kind === "workload") ?? phases[0];
  form.append(
    filterSelect(
      "phase",
      "phase",
      phases.map((x) => x.name),
      phase?.name,
      (v) => ctx.setParams({ phase: v, op: undefined }),
      null,
    ),
  );
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
    ...entries.map((e) =>
      el(
        "li",
        {},
        `${done[e.action]} by `,
        el("bdi", {}, e.actor),
        ` at ${e.at.replace("T", " ").slice(0, 19)} UTC`,
        ...(e.reason ? [": ", el("bdi", {}, e.reason)] : []),
      ),
    ),
  );
}
