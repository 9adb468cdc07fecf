// Capacity search steps (issue: the search reaches its resolution in no more steps than a fixed ladder would need
// for the same resolution). Counts steps, not time: each step is a timed phase of minutes on a real fleet.
//   npx tsx bench/capacity-search.ts [--maximum 10000 --resolution 100 --cases 500]
import { argv } from "zx";
import {
  type CapacitySearch,
  capacityOutcome,
  type JudgedStep,
  judged,
  nextCapacityStep,
  type StepMeasurement,
} from "../model/capacity-search.js";

const maximum = Number(argv.maximum ?? 10_000);
const resolution = Number(argv.resolution ?? 100);
const cases = Number(argv.cases ?? 500);
for (const [name, v] of Object.entries({ maximum, resolution, cases })) {
  if (!(v > 0)) throw new Error(`--${name} must be > 0, got ${v}`);
}
const slo = { operations: ["READ"], percentile: 99, limitMs: 10, errorBudgetPct: 0.1 };

/** A configuration holding the SLO up to `breaking` ops/s (intended p99 3 ms), breaking it above (40 ms). */
const measure =
  (breaking: number) =>
  (target?: number): StepMeasurement => ({
    ...(target === undefined ? {} : { target }),
    achievedOpsSec: Math.min(target ?? maximum, maximum),
    operations: {
      READ: { count: 1000, failed: 0, opMs: 2, intendedMs: target !== undefined && target > breaking ? 40 : 3 },
    },
  });

function run(s: CapacitySearch, breaking: number): { steps: number; bracket: number } {
  const steps: JudgedStep[] = [];
  for (let next = nextCapacityStep(s, steps); next.run; next = nextCapacityStep(s, steps)) {
    steps.push(judged(s, steps.length, next.role, measure(breaking)(next.target)));
  }
  const out = capacityOutcome(steps);
  return { steps: steps.length, bracket: (out.broke?.target ?? maximum) - (out.held?.target ?? 0) };
}

// The fixed ladder that resolves to the same width: every `resolution` from resolution up to the maximum.
const rungs = Math.ceil(maximum / resolution);
const ladder: CapacitySearch = {
  slo,
  maximumOpsSec: maximum,
  fractions: Array.from({ length: rungs }, (_, i) => ((i + 1) * resolution) / maximum),
  maxSteps: rungs,
};
const bisection: CapacitySearch = { slo, maximumOpsSec: maximum, resolutionOpsSec: resolution, maxSteps: 64 };

const results = { ladder: [] as number[], bisection: [] as number[] };
let worstBracket = 0;
for (let i = 0; i < cases; i++) {
  const breaking = ((i + 0.5) / cases) * maximum;
  const l = run(ladder, breaking);
  const b = run(bisection, breaking);
  results.ladder.push(l.steps);
  results.bisection.push(b.steps);
  worstBracket = Math.max(worstBracket, l.bracket, b.bracket);
}
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
console.log(
  `maximum ${maximum} ops/s, resolution ${resolution} ops/s, ${cases} breaking rates spread over (0, maximum)`,
);
console.log(
  `fixed ladder (baseline): mean ${mean(results.ladder).toFixed(1)} steps, max ${Math.max(...results.ladder)}`,
);
console.log(
  `bisection:               mean ${mean(results.bisection).toFixed(1)} steps, max ${Math.max(...results.bisection)}`,
);
console.log(`widest bracket left by either: ${worstBracket.toFixed(0)} ops/s (resolution ${resolution})`);
const worse = results.bisection.filter((b, i) => b > results.ladder[i]!).length;
console.log(
  `cases where bisection needed more steps than the ladder: ${worse} of ${cases} (breaking rates just above a rung)`,
);
