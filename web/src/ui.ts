/** Small DOM helpers: the dashboard needs no framework at runtime. */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

export interface SelectOption {
  value: string;
  label?: string;
}

/** A labelled <select> bound to one URL parameter; "" means "any". */
export function filterSelect(
  name: string,
  label: string,
  options: readonly (SelectOption | string)[],
  current: string | undefined,
  onChange: (value: string) => void,
  anyLabel: string | null = "any",
): HTMLLabelElement {
  const select = el("select", { name, "data-filter": name });
  if (anyLabel !== null) select.append(el("option", { value: "" }, anyLabel));
  for (const o of options) {
    const opt = typeof o === "string" ? { value: o } : o;
    select.append(el("option", { value: opt.value }, opt.label ?? opt.value));
  }
  if (current !== undefined && !Array.from(select.options).some((o) => o.value === current)) {
    // Keep a permalink's value visible even when today's data has no such option.
    select.append(el("option", { value: current }, current));
  }
  select.value = current ?? "";
  select.addEventListener("change", () => onChange(select.value));
  return el("label", { class: "filter" }, `${label} `, select);
}

export function filterInput(
  name: string,
  label: string,
  current: string | undefined,
  onChange: (value: string) => void,
  type = "text",
): HTMLLabelElement {
  const input = el("input", { name, type, "data-filter": name });
  input.value = current ?? "";
  input.addEventListener("change", () => onChange(input.value.trim()));
  return el("label", { class: "filter" }, `${label} `, input);
}

export function message(text: string, kind: "info" | "error" = "info"): HTMLParagraphElement {
  return el("p", { class: `message ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

export function formatNumber(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
