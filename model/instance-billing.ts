import { type Static, Type } from "@sinclair/typebox";

/**
 * What an instance is billed for beside its hours: its EBS volumes and whether it holds a public IPv4 address. The
 * stack decides them once (infra: the volumes it attaches, the egress it chose) and writes them in cluster.json per
 * role; each instance copies its role's into its boot status markers (runner/boot/reporter.ts), so the span the S3
 * import stores from a marker carries what that instance is billed for (model/run-cost.ts spansCost). The markers,
 * not the result documents, carry them: a data node writes no result, a client writes one per phase, and a span is
 * priced from its own instance's marker alone, one record per instance.
 */
export const BilledVolumeSchema = Type.Object(
  {
    type: Type.Union([Type.Literal("gp3"), Type.Literal("io2")]),
    sizeGiB: Type.Integer({ minimum: 1 }),
    /** Provisioned IOPS (gp3: the 3,000 included when absent; io2: required by EC2, billed). */
    iops: Type.Optional(Type.Integer({ minimum: 1 })),
    /** gp3 provisioned throughput, MiB/s (the 125 included when absent). */
    throughputMiBs: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type BilledVolume = Static<typeof BilledVolumeSchema>;

export const InstanceBillingSchema = Type.Object(
  {
    /** Every EBS volume the instance has (root included); instance store is in the instance's price. */
    volumes: Type.Array(BilledVolumeSchema, { maxItems: 20 }),
    publicIpv4: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type InstanceBilling = Static<typeof InstanceBillingSchema>;
