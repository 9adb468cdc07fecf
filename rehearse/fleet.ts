import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { ClusterDescription } from "../model/cluster-description.js";
import { instanceName } from "../model/instance-status.js";
import { INSTANCE_TYPES } from "../model/instance-types.js";
import type { LocalArtifacts } from "./artifacts.js";
import type { Credentials } from "./emulator.js";
import type { StackInstance } from "./evaluate.js";
import { Machine, type MachineDisk, type SeamFile } from "./machine.js";
import type { OsImage } from "./os-image.js";
import { seamFiles } from "./seam.js";

/** Where local artifacts appear inside a data node (read-only), standing for the vendor's download. */
export const GUEST_ENGINE_ARTIFACTS = "/opt/ycsb-lab-rehearsal/engine";
export const GUEST_STAND_IN = "/opt/ycsb-lab-rehearsal/stand-in";

/** A rehearsal's disks are sparse files: big enough for a scaled run, never the volume's full size. */
const MAX_DISK_MIB = 8192;

export interface FleetContext {
  runId: string;
  root: string;
  image: OsImage;
  /** Private address -> the loopback address standing for it. */
  addresses: Map<string, string>;
  frontHosts: string;
  storage: ClusterDescription["storage"];
  artifacts: LocalArtifacts;
  maxHeapMb: number;
  credentialsOf: (roleName: string) => Credentials;
  /** A drill's change to an instance's seam. */
  seam?: (instance: string, files: SeamFile[]) => SeamFile[];
  /** The instance's own metadata service (rehearse/imds.ts). */
  metadataEndpointOf: (instance: string) => string;
}

/** EC2's instance id of a rehearsed instance: stands for the run and the instance (cloud-init runs user-data once per id). */
export function instanceIdOf(runId: string, instance: string): string {
  return `i-${createHash("sha256").update(`${runId}/${instance}`).digest("hex").slice(0, 17)}`;
}

/**
 * The NVMe devices a Nitro instance of this type shows its volumes as: EBS volumes in the order of their device
 * names, then the instance-store disks (the rehearsal gives one: this kernel has no md driver to stripe several).
 */
export function instanceDisks(
  spec: StackInstance,
  storage: ClusterDescription["storage"],
): { disks: MachineDisk[]; blockDevices: string[]; instanceStore: string[]; notes: string[] } {
  const disks: MachineDisk[] = [];
  const blockDevices: string[] = [];
  const instanceStore: string[] = [];
  const notes: string[] = [];
  const next = () => `/dev/nvme${disks.length + 1}n1`;
  for (const v of [...spec.ebs].sort((a, b) => a.deviceName.localeCompare(b.deviceName))) {
    const device = next();
    disks.push({ device, sizeMiB: Math.min(v.sizeGiB * 1024, MAX_DISK_MIB) });
    blockDevices.push(`${v.deviceName.replace(/^\/dev\//, "")}=${device}`);
  }
  if (spec.role === "data" && storage.data.kind === "instance-store") {
    const store = INSTANCE_TYPES[spec.instanceType]?.instanceStore;
    const device = next();
    disks.push({ device, sizeMiB: MAX_DISK_MIB });
    instanceStore.push(device);
    if ((store?.disks ?? 1) > 1)
      notes.push(
        `${spec.instanceType} has ${store!.disks} instance-store disks; the rehearsal gives one (this kernel has no md driver for mdadm's stripe)`,
      );
  }
  return { disks, blockDevices, instanceStore, notes };
}

function bootEnvironment(
  spec: StackInstance,
  ctx: FleetContext,
  disks: ReturnType<typeof instanceDisks>,
): Record<string, string> {
  const env: Record<string, string> = {
    YCSB_LAB_REHEARSAL: "1",
    YCSB_LAB_ADDRESS_MAP: [...ctx.addresses].map(([a, b]) => `${a}=${b}`).join(","),
    // Node.js trusts its own CA list, not the OS's: the rehearsal's front is signed by a CA only the OS trusts.
    NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
    AWS_EC2_METADATA_SERVICE_ENDPOINT: ctx.metadataEndpointOf(instanceName(spec.role, spec.index)),
  };
  if (spec.role !== "data") return env;
  env.YCSB_LAB_MAX_HEAP_MB = String(ctx.maxHeapMb);
  if (disks.blockDevices.length) env.YCSB_LAB_BLOCK_DEVICES = disks.blockDevices.join(",");
  if (disks.instanceStore.length) env.YCSB_LAB_INSTANCE_STORE = disks.instanceStore.join(",");
  if (ctx.artifacts.engineArtifacts) env.YCSB_LAB_ENGINE_ARTIFACTS = GUEST_ENGINE_ARTIFACTS;
  if (ctx.artifacts.standIn) env.YCSB_LAB_STAND_IN = join(GUEST_STAND_IN, basename(ctx.artifacts.standIn));
  return env;
}

/**
 * A service's instance (the dashboard) as a machine beside the run's: its exact user-data, the seam, no disks. It is
 * stopped with the rehearsal and never expected to power off by itself.
 */
export function serviceMachine(
  spec: StackInstance,
  o: {
    root: string;
    runId: string;
    image: OsImage;
    hosts: string;
    address: string;
    credentials: Credentials;
    bootEnvironment: Record<string, string>;
  },
): Machine {
  const name = instanceName(spec.role, spec.index);
  const tag = createHash("sha256").update(o.runId).digest("hex").slice(0, 6);
  const files = seamFiles({
    instanceId: instanceIdOf(o.runId, name),
    hostname: `${name}-${tag}`,
    address: o.address,
    userData: spec.userData,
    hosts: o.hosts,
    credentials: o.credentials,
    bootEnvironment: {
      YCSB_LAB_REHEARSAL: "1",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/certs/ca-certificates.crt",
      ...o.bootEnvironment,
    },
  });
  return new Machine({
    name,
    dir: join(o.root, name),
    image: o.image,
    machineName: `y${tag}-${name}`,
    files,
    readOnly: [],
    disks: [],
  });
}

/** One machine per instance of the evaluated stack, each with its exact user-data and the rehearsal's seam. */
export function buildFleet(instances: StackInstance[], ctx: FleetContext): { machines: Machine[]; notes: string[] } {
  const tag = createHash("sha256").update(ctx.runId).digest("hex").slice(0, 6);
  const notes: string[] = [];
  const machines = instances.map((spec) => {
    const name = instanceName(spec.role, spec.index);
    const disks = instanceDisks(spec, ctx.storage);
    notes.push(...disks.notes);
    const readOnly: Array<{ host: string; guest: string }> = [];
    if (spec.role === "data" && ctx.artifacts.engineArtifacts)
      readOnly.push({ host: ctx.artifacts.engineArtifacts, guest: GUEST_ENGINE_ARTIFACTS });
    if (spec.role === "data" && ctx.artifacts.standIn)
      readOnly.push({ host: dirname(ctx.artifacts.standIn), guest: GUEST_STAND_IN });
    const files = seamFiles({
      instanceId: instanceIdOf(ctx.runId, name),
      hostname: `${name}-${tag}`,
      address: ctx.addresses.get(spec.privateIp) ?? "127.0.0.1",
      userData: spec.userData,
      hosts: ctx.frontHosts,
      credentials: ctx.credentialsOf(spec.roleName),
      bootEnvironment: bootEnvironment(spec, ctx, disks),
    });
    return new Machine({
      name,
      dir: join(ctx.root, name),
      image: ctx.image,
      machineName: `y${tag}-${name}`,
      files: ctx.seam ? ctx.seam(name, files) : files,
      readOnly,
      disks: disks.disks,
    });
  });
  return { machines, notes };
}
