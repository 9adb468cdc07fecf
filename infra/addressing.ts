/**
 * Fixed private addressing of a benchmark VPC. Every node's IP is known before anything exists, so each data node's
 * user-data names its peers (seeds, config server, namenode) as plain text and all instances launch in parallel.
 */
export interface Addressing {
  vpcCidr: string;
  dataSubnetCidr: string;
  clientSubnetCidr: string;
  /** Holds the NAT gateway when instances egress without public addresses (infra/network.ts). */
  publicSubnetCidr: string;
  dataNodeIps: string[];
  clientIps: string[];
}

/** The first 4 addresses of a subnet are reserved by AWS (VPC user guide, "Subnet CIDR blocks"); start at .10. */
export const FIRST_HOST = 10;
/** A /24 leaves .10-.254 for hosts. */
export const MAX_HOSTS_PER_SUBNET = 245;

/** `base` is the VPC's /16 prefix, e.g. "10.42". */
export function addressing(dataNodes: number, clients: number, base = "10.42"): Addressing {
  if (!/^(\d{1,3})\.(\d{1,3})$/.test(base) || base.split(".").some((o) => Number(o) > 255)) {
    throw new Error(`vpcBase: expected the first two octets of a /16 like "10.42", got "${base}"`);
  }
  if (!Number.isInteger(dataNodes) || dataNodes < 1 || dataNodes > MAX_HOSTS_PER_SUBNET) {
    throw new Error(`nodes: must be 1..${MAX_HOSTS_PER_SUBNET}, got ${dataNodes}`);
  }
  if (!Number.isInteger(clients) || clients < 1 || clients > MAX_HOSTS_PER_SUBNET) {
    throw new Error(`clients: must be 1..${MAX_HOSTS_PER_SUBNET}, got ${clients}`);
  }
  return {
    vpcCidr: `${base}.0.0/16`,
    dataSubnetCidr: `${base}.1.0/24`,
    clientSubnetCidr: `${base}.2.0/24`,
    publicSubnetCidr: `${base}.0.0/24`,
    dataNodeIps: Array.from({ length: dataNodes }, (_, i) => `${base}.1.${FIRST_HOST + i}`),
    clientIps: Array.from({ length: clients }, (_, i) => `${base}.2.${FIRST_HOST + i}`),
  };
}
