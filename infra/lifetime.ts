/**
 * A run's brakes, decided at preview from the plan's estimated hours (pure): every instance terminates itself at the
 * end of the `expiry` day (UTC) or `maxHours` after its first boot, whichever comes first (runner/boot/lifetime.ts).
 * - maxHours defaults to twice the estimate: room for a slow run, never a forgotten fleet;
 * - expiry defaults to the day (UTC) the maxHours deadline falls on, so no stack or document carries a fixed date;
 * - an expiry in the past, or ending before the run's estimated end, is refused naming both dates, and so is a
 *   maxHours below the estimate: the fleet would terminate itself mid-run;
 * - an expiry more than FAR_DAYS after the estimated end is allowed with a warning (maxHours still ends the fleet).
 */
export const FAR_DAYS = 30;

export interface LifetimeChoice {
  /** YYYY-MM-DD (UTC). @default the day the maxHours deadline falls on */
  expiry?: string;
  /** @default twice the estimated hours */
  maxHours?: number;
  /** Keep the fleet after the last barrier instead of shutting it down. @default false */
  keepAfterRun?: boolean;
}

export interface RunLifetime {
  expiry: string;
  maxHours: number;
  keepAfterRun: boolean;
}

export interface LifetimeDecision {
  lifetime: RunLifetime;
  problems: Array<{ field: string; message: string }>;
  warnings: string[];
}

const HOUR = 3_600_000;
const endOfDay = (date: string) => new Date(`${date}T23:59:59Z`);
const minute = (d: Date) => `${d.toISOString().slice(0, 16)}Z`;

export function runLifetime(choice: LifetimeChoice, estimatedHours: number, now: Date): LifetimeDecision {
  const problems: LifetimeDecision["problems"] = [];
  const warnings: string[] = [];
  const estimatedEnd = new Date(now.getTime() + estimatedHours * HOUR);
  const maxHours = choice.maxHours ?? Math.ceil(estimatedHours * 2 * 10) / 10;
  if (!(Number.isFinite(maxHours) && maxHours > 0))
    problems.push({ field: "maxHours", message: `hours > 0, got ${choice.maxHours}` });
  else if (maxHours < estimatedHours) {
    problems.push({
      field: "maxHours",
      message: `${maxHours} h ends the fleet before the run's estimated ${estimatedHours} h (estimated end ${minute(estimatedEnd)}); raise it or leave it unset (twice the estimate)`,
    });
  }
  const expiry = choice.expiry ?? new Date(now.getTime() + maxHours * HOUR).toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiry) || Number.isNaN(Date.parse(expiry)))
    problems.push({ field: "expiry", message: `an ISO date YYYY-MM-DD, got "${expiry}"` });
  else if (endOfDay(expiry) <= now) {
    problems.push({
      field: "expiry",
      message: `${expiry} has passed (it is ${minute(now)}): every instance would terminate itself a minute after boot`,
    });
  } else if (endOfDay(expiry) < estimatedEnd) {
    problems.push({
      field: "expiry",
      message: `${expiry} ends (23:59:59 UTC) before the run's estimated end ${minute(estimatedEnd)} (${estimatedHours} h from ${minute(now)})`,
    });
  } else if (endOfDay(expiry).getTime() - estimatedEnd.getTime() > FAR_DAYS * 24 * HOUR) {
    warnings.push(
      `expiry ${expiry} is more than ${FAR_DAYS} days after the run's estimated end ${minute(estimatedEnd)}: the fleet still ends after maxHours (${maxHours} h), but a sweeper relying on the tag waits that long`,
    );
  }
  return { lifetime: { expiry, maxHours, keepAfterRun: choice.keepAfterRun ?? false }, problems, warnings };
}
