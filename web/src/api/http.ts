/** GET against the results API with errors that name the request; requests in order; a request once per page load. */

export const API_BASE = "/api/v1";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export async function getJson(
  path: string,
  params: Record<string, string | number | undefined> = {},
): Promise<unknown> {
  const url = `${API_BASE}${path}${queryString(params)}`;
  const response = await fetch(url, { headers: { accept: "application/json" } });
  if (!response.ok) {
    let detail = response.statusText;
    try {
      const body = (await response.json()) as { message?: string };
      if (body.message) detail = body.message;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new ApiError(response.status, path, `GET ${path} failed (${response.status}): ${detail}`);
  }
  return response.json();
}

/**
 * Like Promise.all, but when several requests fail the error is the first one's in argument order, not the first
 * to arrive: a view names its own request (GET /scaling) rather than whichever helper request lost the race.
 */
export async function allInOrder<T extends readonly unknown[] | []>(
  requests: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(requests as readonly unknown[]);
  const values: unknown[] = [];
  for (const s of settled) {
    if (s.status === "rejected") throw s.reason;
    values.push(s.value);
  }
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** A request made once per page load and shared; a failed one is tried again by the next caller. */
export function oncePerPage<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load().catch((e: unknown) => {
      pending = null;
      throw e;
    }));
}
