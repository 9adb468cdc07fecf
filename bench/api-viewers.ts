/**
 * Dashboard viewers against a running results API, in a process of their own (their JSON handling does not share the
 * server's event loop). Each viewer loads the dashboard as web/src/api.ts does (every /runs page once per page load,
 * the published tables), then keeps opening views at random: runs, compare, scaling, durability, sweeps, latency,
 * time series, repeatability. Prints one JSON line: per route the latencies (ms) of the timed window.
 *   npx tsx bench/api-viewers.ts --base http://127.0.0.1:PORT [--viewers 16] [--seconds 20] [--writer-token T]
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    viewers: { type: "string", default: "16" },
    seconds: { type: "string", default: "20" },
    /** With a token: one writer posts a 2-client phase every `writer-every` ms while the viewers look. */
    "writer-token": { type: "string" },
    "writer-every": { type: "string", default: "1000" },
    "writer-body": { type: "string" },
  },
});
const base = `${values.base}/api/v1`;
const VIEWERS = Number(values.viewers);
const SECONDS = Number(values.seconds);

type Sample = { route: string; ms: number; status: number };
const samples: Sample[] = [];
let timing = false;

/** A GET as the dashboard makes it, timed in the window; an answer other than 200 is counted, and reads as null. */
async function get(route: string, path: string, parse = false): Promise<unknown> {
  const t = performance.now();
  try {
    const res = await fetch(`${base}${path}`);
    // Parsed only where the viewer needs the content (the first page load's run ids): parsing megabytes of JSON here
    // would delay this process's own timers and inflate every latency it measures.
    const body = parse ? await res.json() : await res.arrayBuffer();
    if (timing) samples.push({ route, ms: performance.now() - t, status: res.status });
    return res.status === 200 ? body : null;
  } catch {
    if (timing) samples.push({ route, ms: performance.now() - t, status: 0 });
    return null;
  }
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/** What the dashboard fetches once per page load: every /runs page (1,000 runs each, all at once) and /reference. */
let total = 0;
async function pageLoad(parse = false): Promise<{ id: string }[]> {
  const first = (await get("/runs", "/runs?limit=1000&offset=0", parse)) as { total: number; runs: { id: string }[] } | null;
  if (first) total = first.total;
  const offsets: number[] = [];
  for (let o = 1000; o < total; o += 1000) offsets.push(o);
  const rest = (await Promise.all(offsets.map((o) => get("/runs", `/runs?limit=1000&offset=${o}`, parse)))) as (typeof first)[];
  await get("/reference", "/reference");
  return [first, ...rest].flatMap((p) => p?.runs ?? []);
}

const views: Record<string, (runs: { id: string }[]) => Promise<void>> = {
  runs: async () => void (await pageLoad()),
  compare: async (runs) => void (await get("/compare", `/compare?runs=${[pick(runs), pick(runs), pick(runs)].map((r) => r.id).join(",")}`)),
  scaling: async () => void (await get("/scaling", pick(["/scaling", "/scaling?workload=a"]))),
  durability: async () => void (await get("/durability", "/durability")),
  sweeps: async () => void (await get("/sweeps", pick(["/sweeps", "/sweeps?engine=cassandra"]))),
  repeatability: async () => void (await get("/repeatability", "/repeatability")),
  latency: async (runs) => {
    const id = pick(runs).id;
    const body = (await get("/runs/:id", `/runs/${encodeURIComponent(id)}`)) as ArrayBuffer | null;
    const run = body ? (JSON.parse(new TextDecoder().decode(body)) as { phases: { phase: { name: string } }[] }) : { phases: [] };
    const phase = run.phases.length ? pick(run.phases).phase.name : undefined;
    if (phase) await get("/runs/:id/phases/:phase/series", `/runs/${encodeURIComponent(id)}/phases/${encodeURIComponent(phase)}/series`);
  },
};

async function viewer(runs: { id: string }[], until: number): Promise<void> {
  const names = Object.keys(views);
  while (performance.now() < until) {
    // A reload now and then: the runs explorer again, all of its pages.
    const view = Math.random() < 0.1 ? "runs" : pick(names);
    await views[view]!(runs);
  }
}

async function writer(token: string, body: string, every: number, until: number): Promise<void> {
  let n = 0;
  while (performance.now() < until) {
    const t = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${base}/results`, { method: "POST", body: body.replaceAll("WRITER-RUN", `writer-${process.pid}-${n++}`), headers: { "content-type": "application/json", authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      /* counted as an error */
    }
    samples.push({ route: "POST /results", ms: performance.now() - t, status });
    await new Promise((r) => setTimeout(r, Math.max(0, every - (performance.now() - t))));
  }
}

// Warm-up, sequentially: the page load (its run ids parsed), then every variant of every view once. The first latency
// of each route (its answer computed, not yet kept) is reported apart from the window.
timing = true;
const runs = await pageLoad(true);
// Every URL a view may ask for (both variants where a view picks one at random).
for (const path of ["/scaling", "/scaling?workload=a", "/durability", "/sweeps", "/sweeps?engine=cassandra", "/repeatability"]) await get(path.replace(/\?.*$/, ""), path);
for (const v of Object.keys(views)) await views[v]!(runs);
const first: Record<string, number> = {};
for (const s of samples) first[s.route] = Math.max(first[s.route] ?? 0, s.ms);
samples.length = 0;

const until = performance.now() + SECONDS * 1000;
const body = values["writer-body"];
await Promise.all([
  ...Array.from({ length: VIEWERS }, () => viewer(runs, until)),
  ...(values["writer-token"] && body ? [writer(values["writer-token"], body, Number(values["writer-every"]), until)] : []),
]);
const byRoute: Record<string, { ms: number[]; errors: number }> = {};
for (const s of samples) {
  const r = (byRoute[s.route] ??= { ms: [], errors: 0 });
  r.ms.push(s.ms);
  if (s.status >= 300) r.errors++;
}
process.stdout.write(`${JSON.stringify({ first, byRoute })}\n`);
