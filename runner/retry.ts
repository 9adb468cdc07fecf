/** Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"). */
export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** Give up after this long in total; undefined = never. */
  deadlineMs?: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 200, maxMs: 15_000 };

/** Delay before retry `attempt` (0-based): uniform in [0, min(max, base * 2^attempt)]. */
export function backoffDelay(attempt: number, o: BackoffOptions, random: () => number = Math.random): number {
  const cap = Math.min(o.maxMs, o.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * cap);
}

export class RetryDeadlineError extends Error {}

/** Errors a retry cannot fix (access denied, no such bucket): thrown at once by withRetry. */
export interface PermanentError extends Error {
  readonly permanent: true;
}

export function isPermanent(err: unknown): boolean {
  return (err as { permanent?: unknown } | undefined)?.permanent === true;
}

/** Run `fn` until it succeeds, sleeping by `backoffDelay` between attempts, up to the deadline; a permanent error is not retried. */
export async function withRetry<T>(
  what: string,
  fn: () => Promise<T>,
  o: BackoffOptions = DEFAULT_BACKOFF,
): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (isPermanent(err)) throw err;
      const delay = backoffDelay(attempt, o);
      if (o.deadlineMs !== undefined && Date.now() - started + delay > o.deadlineMs) {
        throw new RetryDeadlineError(
          `${what}: gave up after ${attempt + 1} attempts in ${Date.now() - started} ms: ${(err as Error).message}`,
        );
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
