import type { ChartSpec } from "./charts.js";
import type { ViewName, ViewState } from "./url-state.js";

/** What a view gets on each render: its state from the URL and the two areas it fills. */
export interface ViewContext {
  state: ViewState;
  /** Filters and tables: rebuilt on every render. */
  controls: HTMLElement;
  /** Tables and notes under the charts: rebuilt on every render. */
  details: HTMLElement;
  /** Charts: kept across renders of the same view so charts update in place. */
  charts: HTMLElement;
  /** Change URL parameters (pushes a history entry, re-renders). */
  setParams(changes: Record<string, string | undefined>): void;
  /** Open another view with its own parameters. */
  open(view: ViewName, params: Record<string, string>): void;
  /** Draw or update a chart in the charts area; ids drawn in this render are kept, others destroyed. */
  chart(spec: ChartSpec): void;
}

export interface View {
  title: string;
  render(ctx: ViewContext): Promise<void>;
}
