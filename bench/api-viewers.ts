/**
 * Dashboard viewers against a running results API, in a process of their own (their HTTP handling does not share the
 * server's event loop). Each viewer opens views at random and asks what web/src/api.ts asks for each: the runs
 * explorer (/facets, /timeline, a /runs page), compare, scaling, durability (with the scenario's sweeps and the
 * published tables), thread sweeps, repeatability, latency and time series of one run (/runs/:id and its series).
 * Prints one JSON line: per route the latencies (ms) of the timed window and of the warm-up.
 *   npx tsx bench/api-viewers.ts --base http://127.0.0.1:PORT --runs 10000 [--viewers 16] [--seconds 20]
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    /** The bench's runs are team-0 .. team-<runs-1> (bench/api.ts teamRun), in scenario bench-team. */
    runs: { type: "string", default: "10000" },
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
async function get(route: string, path: string): Promise<unknown> {
  const t = performance.now();
  try {
    const res = await fetch(`${base}${path}`);
    // Never parsed: parsing megabytes of JSON here would delay this process's own timers and inflate what it measures.
    const body = await res.arrayBuffer();
    if (timing) samples.push({ route, ms: performance.now() - t, status: res.status });
    return res.status === 200 ? body : null;
  } catch {
    if (timing) samples.push({ route, ms: performance.now() - t, status: 0 });
    return null;
  }
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

const RUNS = Number(values.runs);
const runId = () => `team-${Math.floor(Math.random() * RUNS)}`;
const PAGES = Math.ceil(RUNS / 100);

const views: Record<string, () => Promise<void>> = {
  runs: async () => {
    await Promise.all([
      get("/facets", "/facets"),
      get("/timeline", "/timeline"),
      get("/runs", `/runs?limit=100&offset=${Math.floor(Math.random() * PAGES) * 100}`),
    ]);
  },
  compare: async () => void (await get("/compare", `/compare?runs=${[runId(), runId(), runId()].join(",")}`)),
  scaling: async () =>
    void (await Promise.all([get("/scaling", pick(["/scaling", "/scaling?workload=a"])), get("/facets", "/facets")])),
  durability: async () => {
    await Promise.all([get("/facets", "/facets"), get("/reference", "/reference")]);
    await Promise.all([
      get("/durability", "/durability?scenario=bench-team"),
      get("/sweeps", "/sweeps?scenario=bench-team&source=measured"),
    ]);
  },
  sweeps: async () =>
    void (await Promise.all([
      get("/sweeps", pick(["/sweeps", "/sweeps?engine=cassandra"])),
      get("/facets", "/facets"),
    ])),
  repeatability: async () =>
    void (await Promise.all([get("/repeatability", "/repeatability"), get("/facets", "/facets")])),
  latency: async () => {
    const id = runId();
    await get("/runs/:id", `/runs/${id}`);
    await get("/runs/:id/phases/:phase/series", `/runs/${id}/phases/a-t${pick([4, 8, 16, 32])}/series`);
  },
};

/**
 * The floor beside the views, measured by the same viewers under the same load: GET /health is the HTTP stack and one
 * database round trip (SELECT 1), so a route's p95 over this one's is what its own work costs.
 */
async function floor(): Promise<void> {
  const t = performance.now();
  try {
    const res = await fetch(`${values.base}/health`);
    await res.arrayBuffer();
    if (timing) samples.push({ route: "GET /health (floor)", ms: performance.now() - t, status: res.status });
  } catch {
    if (timing) samples.push({ route: "GET /health (floor)", ms: performance.now() - t, status: 0 });
  }
}

async function viewer(until: number): Promise<void> {
  const names = Object.keys(views);
  while (performance.now() < until) {
    await views[pick(names)]!();
    await floor();
  }
}

async function writer(token: string, body: string, every: number, until: number): Promise<void> {
  let n = 0;
  while (performance.now() < until) {
    const t = performance.now();
    let status = 0;
    try {
      const res = await fetch(`${base}/results`, {
        method: "POST",
        body: body.replaceAll("WRITER-RUN", `writer-${process.pid}-${n++}`),
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      /* counted as an error */
    }
    samples.push({ route: "POST /results", ms: performance.now() - t, status });
    await new Promise((r) => setTimeout(r, Math.max(0, every - (performance.now() - t))));
  }
}

// Warm-up, sequentially: every URL a view asks for that is the same for everyone (answers computed once, then kept),
// and each view once. The slowest warm-up latency of each route is reported apart from the window ("cold").
timing = true;
for (const path of [
  "/facets",
  "/timeline",
  "/reference",
  "/scaling",
  "/scaling?workload=a",
  "/durability?scenario=bench-team",
  "/sweeps?scenario=bench-team&source=measured",
  "/sweeps",
  "/sweeps?engine=cassandra",
  "/repeatability",
]) {
  await get(path.replace(/\?.*$/, ""), path);
}
for (const v of Object.keys(views)) await views[v]!();
const first: Record<string, number> = {};
for (const s of samples) first[s.route] = Math.max(first[s.route] ?? 0, s.ms);
samples.length = 0;

const until = performance.now() + SECONDS * 1000;
const body = values["writer-body"];
await Promise.all([
  ...Array.from({ length: VIEWERS }, () => viewer(until)),
  ...(values["writer-token"] && body
    ? [writer(values["writer-token"], body, Number(values["writer-every"]), until)]
    : []),
]);
// 503 apart from other errors: the service refusing for want of its pool or queue, which the targets forbid.
const byRoute: Record<string, { ms: number[]; errors: number; unavailable: number }> = {};
for (const s of samples) {
  const r = (byRoute[s.route] ??= { ms: [], errors: 0, unavailable: 0 });
  r.ms.push(s.ms);
  if (s.status >= 300 || s.status === 0) r.errors++;
  if (s.status === 503) r.unavailable++;
}
process.stdout.write(`${JSON.stringify({ first, byRoute })}\n`);
