import { isDeepStrictEqual } from "node:util";

/**
 * What a second `pulumi up` of a stack would do to its instances, from two evaluations under mocks (inputs and
 * resource options of every resource), and what EC2 would answer. The rules it models:
 * - Pulumi replaces a resource when an input its provider marks "forces replacement" changes, unless the option
 *   ignoreChanges names it; by default it creates the replacement before it deletes the old resource, and with
 *   deleteBeforeReplace it deletes first (Pulumi docs, resource options "deleteBeforeReplace").
 * - aws.ec2.Instance: changing userData replaces the instance when userDataReplaceOnChange is set; privateIp, subnetId,
 *   ami, placementGroup, availabilityZone and ebsBlockDevices force replacement too (Pulumi AWS registry, Instance).
 * - EC2 keeps an instance's private IPv4 address until the instance is terminated (EC2 user guide, "Private IPv4
 *   addresses"): launching another instance with that address first fails with InvalidIPAddress.InUse.
 */
export interface Evaluated {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  options?: { deleteBeforeReplace?: boolean; ignoreChanges?: string[] };
}

export interface SecondUp {
  /** Instances Pulumi would replace, with the inputs that force it and the order it takes. */
  replaced: Array<{ name: string; because: string[]; order: "create-then-delete" | "delete-then-create" }>;
  /** What EC2 would refuse during that up. */
  errors: string[];
}

const INSTANCE = "aws:ec2/instance:Instance";
const INSTANCE_REPLACE_KEYS = ["ami", "availabilityZone", "subnetId", "privateIp", "placementGroup", "ebsBlockDevices"];

function replacementKeys(r: Evaluated): string[] {
  if (r.type !== INSTANCE) return [];
  return [...INSTANCE_REPLACE_KEYS, ...(r.inputs.userDataReplaceOnChange ? ["userData"] : [])];
}

export function secondUp(first: Evaluated[], second: Evaluated[]): SecondUp {
  const before = new Map(first.map((r) => [`${r.type}::${r.name}`, r]));
  const replaced: SecondUp["replaced"] = [];
  const errors: string[] = [];
  // Addresses held by instances of the first up until they are deleted.
  const held = new Map(
    first.filter((r) => r.type === INSTANCE && r.inputs.privateIp).map((r) => [String(r.inputs.privateIp), r.name]),
  );
  const launch = (r: Evaluated) => {
    const ip = r.inputs.privateIp ? String(r.inputs.privateIp) : undefined;
    if (ip && held.has(ip))
      errors.push(`${r.name}: InvalidIPAddress.InUse: ${ip} is held by ${held.get(ip)}, which is not terminated yet`);
  };
  for (const r of second.filter((x) => x.type === INSTANCE)) {
    const old = before.get(`${r.type}::${r.name}`);
    if (!old) {
      launch(r);
      continue;
    }
    const ignored = new Set(r.options?.ignoreChanges ?? []);
    const because = replacementKeys(r).filter((k) => !ignored.has(k) && !isDeepStrictEqual(old.inputs[k], r.inputs[k]));
    if (because.length === 0) continue;
    const order = r.options?.deleteBeforeReplace ? "delete-then-create" : "create-then-delete";
    replaced.push({ name: r.name, because, order });
    if (order === "delete-then-create") held.delete(String(old.inputs.privateIp));
    launch(r);
  }
  return { replaced, errors };
}
