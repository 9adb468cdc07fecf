/** The app shell: navigation, URL state (permalinks) and one view at a time. */
import { destroyAllCharts, destroyChartsExcept, setExportCaption, upsertChart } from "./charts.js";
import { el } from "./ui.js";
import { parseState, serializeState, VIEWS, type ViewName, type ViewState } from "./url-state.js";
import type { View, ViewContext } from "./view.js";
import { VIEW_MODULES } from "./views/index.js";

const app = document.getElementById("app")!;
const nav = document.getElementById("nav")!;
const loading = document.getElementById("loading")!;
let currentView: ViewName | null = null;
let controls = el("section", { class: "controls" });
let charts = el("section", { class: "charts" });
let details = el("section", { class: "details" });
let renderSerial = 0;

function navigate(state: ViewState, replace = false): void {
  const search = serializeState(state);
  if (search !== location.search) history[replace ? "replaceState" : "pushState"](null, "", search);
  void render();
}

function renderNav(active: ViewName): void {
  nav.replaceChildren(
    ...VIEWS.map((name) => {
      const a = el(
        "a",
        { href: serializeState({ view: name, params: {} }), "data-view": name },
        VIEW_MODULES[name].title,
      );
      if (name === active) a.setAttribute("aria-current", "page");
      a.addEventListener("click", (e) => {
        e.preventDefault();
        navigate({ view: name, params: {} });
      });
      return a;
    }),
  );
}

/** The control a user was on (a filter select, the axis toggle), to give focus back after the view is rebuilt. */
function focusedControl(): string | null {
  const a = document.activeElement as HTMLElement | null;
  return a && app.contains(a) ? (a.dataset.filter ?? a.dataset.action ?? null) : null;
}

function restoreFocus(name: string | null): void {
  if (!name) return;
  const target = app.querySelector<HTMLElement>(
    `[data-filter="${CSS.escape(name)}"], [data-action="${CSS.escape(name)}"]`,
  );
  if (target && document.activeElement !== target) target.focus();
}

/** A request that failed: what failed, and a way to try again without reloading the page. */
function errorState(error: unknown, retry: () => void): HTMLElement {
  const text = error instanceof Error ? error.message : String(error);
  const button = el("button", { type: "button", "data-action": "retry" }, "Retry");
  button.addEventListener("click", retry);
  return el("div", { class: "error-state", role: "alert" }, el("p", { class: "message error" }, text), button);
}

/** "workload a · scenario quickstart": the view's filters, as printed under an exported chart's title. */
function describeParams(params: Record<string, string>): string {
  const shown = Object.entries(params).filter(([k]) => k !== "page" && k !== "selected");
  return shown.length ? shown.map(([k, v]) => `${k} ${v}`).join(" · ") : "no filters";
}

async function render(): Promise<void> {
  const serial = ++renderSerial;
  // Not ready until this render ends: a re-render of the same address (back to a view, a retry) would
  // otherwise still carry the last render's mark, and whoever waits for it would read a view still loading.
  delete document.body.dataset.ready;
  const state = parseState(location.search);
  const view: View = VIEW_MODULES[state.view];
  const focused = focusedControl();
  if (state.view !== currentView) {
    destroyAllCharts();
    controls = el("section", { class: "controls", "aria-label": "filters" });
    charts = el("section", { class: "charts", "aria-label": "charts" });
    details = el("section", { class: "details", "aria-label": "details" });
    app.replaceChildren(el("h2", {}, view.title), controls, charts, details);
    currentView = state.view;
    renderNav(state.view);
  }
  document.title = `${view.title} · ycsb-lab`;
  setExportCaption(`${view.title} · ${describeParams(state.params)}`);
  const drawn = new Set<string>();
  const ctx: ViewContext = {
    state,
    controls: el("div"),
    details: el("div"),
    charts,
    setParams: (changes) => {
      const params = { ...state.params };
      for (const [k, v] of Object.entries(changes)) {
        if (v === undefined || v === "") delete params[k];
        else params[k] = v;
      }
      navigate({ view: state.view, params });
    },
    open: (name, params) => navigate({ view: name, params }),
    chart: (spec) => {
      if (serial !== renderSerial) return;
      drawn.add(spec.id);
      upsertChart(charts, spec);
    },
  };
  controls.replaceChildren(ctx.controls);
  details.replaceChildren(ctx.details);
  app.setAttribute("aria-busy", "true");
  loading.hidden = false;

  try {
    await view.render(ctx);
  } catch (error) {
    if (serial !== renderSerial) return;

    ctx.controls.append(errorState(error, () => void render()));
  }
  if (serial !== renderSerial) return;
  loading.hidden = true;
  app.removeAttribute("aria-busy");
  destroyChartsExcept(drawn);
  restoreFocus(focused);
  window.__viewReady = { view: state.view, search: location.search, at: performance.now() };
  document.body.dataset.ready = `${state.view}${location.search}`;
}

window.addEventListener("popstate", () => void render());
window.__charts = window.__charts ?? {};
void render();
