import { describe, expect, it } from "vitest";
import { LOCAL_RUN_NO_PRICE, runCost } from "../../model/run-cost.js";
import { runCostText } from "../../web/src/run-cost.js";

describe("a run's realized cost on its page", () => {
  it("says the dollars, the seconds billed, the data nodes' $/h, what it covers and the prices' date and source", () => {
    const cost = runCost("m6i.large", [
      {
        instance: "node-0",
        role: "data",
        instanceType: "m6i.large",
        startedAt: "2026-01-01T10:00:00Z",
        endedAt: "2026-01-01T11:00:00Z",
      },
    ]);
    const text = runCostText("r1", cost);
    expect(text).toMatch(
      /^r1: realized cost \$0\.0960 for 1 instance\(s\), 3600 s billed, \$0\.0960\/h for the data nodes/,
    );
    expect(text).toMatch(/volumes and public IPv4 addresses are not counted: no instance's markers recorded them/);
    expect(text).not.toMatch(/EBS volumes \$/);
    expect(text).toMatch(/prices of \d{4}-\d{2}-\d{2}, https:\/\/aws\.amazon\.com/);
  });

  it("with the markers' volumes and address, says what each part cost", () => {
    const cost = runCost("m6i.large", [
      {
        instance: "node-0",
        role: "data",
        instanceType: "m6i.large",
        startedAt: "2026-01-01T10:00:00Z",
        endedAt: "2026-01-01T11:00:00Z",
        billing: { volumes: [{ type: "gp3", sizeGiB: 730 }], publicIpv4: true },
      },
    ]);
    // By hand: $0.096 the hour, 730 GiB x $0.08 per GB-month over 730 h is $0.08, the address $0.005.
    expect(runCostText("r1", cost)).toMatch(
      new RegExp(
        "^r1: realized cost \\$0\\.1810 \\(instance-hours \\$0\\.0960, EBS volumes \\$0\\.0800, " +
          "public IPv4 \\$0\\.0050\\) for 1 instance",
      ),
    );
  });

  it("a local run says it carries no price", () => {
    expect(runCostText("local-1", runCost("local", []))).toBe(`local-1: ${LOCAL_RUN_NO_PRICE}.`);
  });
});
