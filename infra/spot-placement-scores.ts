import * as pulumi from "@pulumi/pulumi";
import { type ScoreRequest, SPOT_PLACEMENT_SCORES_TOKEN, type SpotPlacementScore } from "./zone-choice.js";

/**
 * EC2's GetSpotPlacementScores at preview, per zone (SingleAvailabilityZone=true) for one group of instances
 * (EC2 API reference, "GetSpotPlacementScores"; permission ec2:GetSpotPlacementScores). The Pulumi AWS provider has
 * no function for it, so the program asks EC2 itself with the AWS SDK, credentials from the SDK's chain and the
 * stack's `aws:profile`. Under `pulumi.runtime.setMocks` it asks the mocks instead, under SPOT_PLACEMENT_SCORES_TOKEN
 * (infra/zone-choice.ts), as they answer the provider's lookups: no test reaches AWS.
 */

/** The request as the mocks receive it: GetSpotPlacementScores' parameters, camel-cased like Pulumi lookups. */
export interface SpotPlacementScoresArgs extends ScoreRequest {
  region: string;
  singleAvailabilityZone: true;
  targetCapacityUnitType: "units";
}

/** Scores, or why there are none (EC2's error code and message: UnauthorizedOperation without the permission). */
export type ScoresAnswer = { scores: SpotPlacementScore[] } | { problem: string };

const mocked = (): boolean => (pulumi.runtime.getMonitor() as { mocks?: unknown } | undefined)?.mocks !== undefined;

export function spotPlacementScoresOutput(
  request: ScoreRequest,
  region: string,
  parent: pulumi.Resource,
): pulumi.Output<ScoresAnswer> {
  const args: SpotPlacementScoresArgs = {
    ...request,
    region,
    singleAvailabilityZone: true,
    targetCapacityUnitType: "units",
  };
  const asked = mocked()
    ? pulumi.runtime
        .invoke(SPOT_PLACEMENT_SCORES_TOKEN, { ...args }, { parent })
        .then((r: { spotPlacementScores?: SpotPlacementScore[] }) => r.spotPlacementScores ?? [])
    : askEc2(args, new pulumi.Config("aws").get("profile"));
  return pulumi.output(
    asked.then(
      (scores): ScoresAnswer => ({ scores }),
      (e: unknown): ScoresAnswer => ({ problem: errorText(e) }),
    ),
  );
}

function errorText(e: unknown): string {
  const err = e as { name?: string; Code?: string; message?: string };
  const code = err?.Code ?? err?.name;
  return code && code !== "Error" ? `${code}: ${err.message ?? ""}`.trim() : String(err?.message ?? e);
}

/** Every page of the answer (the top 10 zones fit one page of MaxResults 10; NextToken is followed all the same). */
async function askEc2(args: SpotPlacementScoresArgs, profile: string | undefined): Promise<SpotPlacementScore[]> {
  let sdk: typeof import("@aws-sdk/client-ec2");
  try {
    sdk = await import("@aws-sdk/client-ec2");
  } catch {
    throw new Error(
      "@aws-sdk/client-ec2 is not installed beside ycsb-lab (npm install @aws-sdk/client-ec2 to score zones)",
    );
  }
  const client = new sdk.EC2Client({ region: args.region, ...(profile ? { profile } : {}) });
  const scores: SpotPlacementScore[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await client.send(
        new sdk.GetSpotPlacementScoresCommand({
          InstanceTypes: args.instanceTypes,
          TargetCapacity: args.targetCapacity,
          TargetCapacityUnitType: args.targetCapacityUnitType,
          SingleAvailabilityZone: true,
          RegionNames: [args.region],
          MaxResults: 10,
          NextToken: token,
        }),
      );
      scores.push(
        ...(page.SpotPlacementScores ?? []).map((s) => ({
          region: s.Region,
          availabilityZoneId: s.AvailabilityZoneId,
          score: s.Score,
        })),
      );
      token = page.NextToken;
    } while (token);
  } finally {
    client.destroy();
  }
  return scores;
}
