import { emptyStatusSeries, type ResultDocument, SCHEMA_VERSION } from "../../model/index.js";

/** A minimal valid result document for schema tests; fields a test spoils are set explicitly. */
export function sampleDocument(): ResultDocument {
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      id: "quickstart-20261122-1",
      scenario: "quickstart",
      engine: "cassandra",
      engineVersion: "5.0.4",
      preset: "balanced",
      nodes: 1,
      instanceTypes: { data: "local", client: "local" },
      replication: 1,
      ycsbVersion: "0.17.0",
      ycsbLabVersion: "0.1.0",
      repeat: 0,
      startedAt: "2026-11-22T04:00:00.000Z",
      source: { kind: "measured" },
    },
    phase: {
      name: "a-t8",
      index: 2,
      kind: "workload",
      workload: "a",
      properties: { recordcount: "1000" },
      threadsPerClient: 8,
      clients: 1,
    },
    client: { index: 0, count: 1 },
    startedAt: "2026-11-22T04:00:01.000Z",
    finishedAt: "2026-11-22T04:00:11.000Z",
    result: {
      overall: { runtimeMs: 10_000, throughputOpsSec: 50 },
      operations: {
        READ: {
          count: 500,
          avgUs: 120.5,
          minUs: 40,
          maxUs: 9000,
          percentilesUs: { "95": 300, "99": 800 },
          returns: { OK: 500 },
        },
      },
      gc: {},
      statusSeries: emptyStatusSeries(),
      measurementType: "hdrhistogram",
      unknownLines: [],
      warnings: [],
    },
    hdrLogs: [],
    resources: [],
    validity: { verdict: "valid", reasons: [] },
  };
}
