/** The app shell: navigation, URL state (permalinks) and one view at a time. */
import { destroyAllCharts, destroyChartsExcept, upsertChart } from "./charts.js";
import { el, message } from "./ui.js";
import { parseState, serializeState, VIEWS, type ViewName, type ViewState } from "./url-state.js";
import type { View, ViewContext } from "./view.js";
import { VIEW_MODULES } from "./views/index.js";

const app = document.getElementById("app")!;
const nav = document.getElementById("nav")!;
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
      const a = el("a", { href: serializeState({ view: name, params: {} }), "data-view": name }, VIEW_MODULES[name].title);
      if (name === active) a.setAttribute("aria-current", "page");
      a.addEventListener("click", (e) => {
        e.preventDefault();
        navigate({ view: name, params: {} });
      });
      return a;
    }),
  );
}

async function render(): Promise<void> {
  const serial = ++renderSerial;
  const state = parseState(location.search);
  const view: View = VIEW_MODULES[state.view];
  if (state.view !== currentView) {
    destroyAllCharts();
    controls = el("section", { class: "controls" });
    charts = el("section", { class: "charts" });
    details = el("section", { class: "details" });
    app.replaceChildren(el("h2", {}, view.title), controls, charts, details);
    currentView = state.view;
    renderNav(state.view);
  }
  document.title = `${view.title} · ycsb-lab`;
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
  try {
    await view.render(ctx);
  } catch (error) {
    if (serial !== renderSerial) return;
    ctx.controls.append(message(error instanceof Error ? error.message : String(error), "error"));
  }
  if (serial !== renderSerial) return;
  destroyChartsExcept(drawn);
  window.__viewReady = { view: state.view, search: location.search, at: performance.now() };
  document.body.dataset.ready = `${state.view}${location.search}`;
}

window.addEventListener("popstate", () => void render());
window.__charts = window.__charts ?? {};
void render();
