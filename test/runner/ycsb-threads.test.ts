import { describe, expect, it } from "vitest";
import { buildYcsbCommand, threadsForCount } from "../../runner/ycsb-process.js";

// YCSB 0.17.0 waits on a latch sized by the requested -threads; with more threads than operations it never reaches
// zero and the JVM can hang after its last operation (runner/ycsb-process.ts threadsForCount).
describe("YCSB's thread count against the client's operations", () => {
  const argvThreads = (phase: "load" | "run", properties: Record<string, string>, threads = 40) => {
    const { args } = buildYcsbCommand({
      phase,
      dbClass: "site.ycsb.BasicDB",
      classpath: ["core/*"],
      properties,
      threads,
    });
    return args[args.indexOf("-threads") + 1];
  };

  it("a load of 5 records on 40 threads runs 5 threads; a run of 3 operations runs 3", () => {
    expect(argvThreads("load", { insertcount: "5", recordcount: "16000000000" })).toBe("5");
    expect(argvThreads("load", { recordcount: "7" })).toBe("7");
    expect(argvThreads("run", { operationcount: "3", recordcount: "1000" })).toBe("3");
  });

  it("keeps the requested threads when there are enough operations, none are stated, or 0 means unbounded", () => {
    expect(argvThreads("run", { operationcount: "1000000" })).toBe("40");
    expect(argvThreads("run", {})).toBe("40");
    // operationcount 0 with maxexecutiontime: YCSB runs until the time is up, every thread busy.
    expect(argvThreads("run", { operationcount: "0", maxexecutiontime: "60" })).toBe("40");
    // A load reads insertcount first: a client's share of a larger recordcount.
    expect(threadsForCount(40, "load", { insertcount: "500000000", recordcount: "16000000000" })).toBe(40);
    expect(threadsForCount(8, "run", { operationcount: "not a number" })).toBe(8);
  });
});
