import type { ResultsStore } from "./results-store.js";

/** The API takes at most 1000 documents per request (api/routes/api/results); 500 keeps requests small. */
const BATCH = 500;

/** POST a run's result documents to the results API in batches; it stores each document once. */
export async function ingestRun(
  base: string,
  store: ResultsStore,
  runId: string,
  token: string,
): Promise<{ sent: number; created: number; duplicates: number }> {
  const keys = (await store.list(`runs/${runId}/`)).filter((k) => k.endsWith("/result.json"));
  let created = 0;
  let duplicates = 0;
  for (let i = 0; i < keys.length; i += BATCH) {
    const docs = await Promise.all(
      keys.slice(i, i + BATCH).map(async (k) => JSON.parse((await store.get(k))!.toString("utf8")) as unknown),
    );
    const res = await fetch(new URL("/api/v1/results", base), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(docs),
    });
    if (!res.ok)
      throw new Error(
        `ingest: ${base} refused run ${runId}'s documents (${res.status}): ${(await res.text()).slice(0, 300)}`,
      );
    const out = (await res.json()) as { created: number; duplicates: number };
    created += out.created;
    duplicates += out.duplicates;
  }
  return { sent: keys.length, created, duplicates };
}
