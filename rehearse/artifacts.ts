import { dirname } from "node:path";
import { COUCHBASE_STAND_IN } from "../engines/couchbase/stand-in.js";
import { MONGODB_STAND_IN } from "../engines/mongodb/stand-in.js";
import type { Engine } from "../model/engine.js";
import { runSetupScript } from "../runner/java-artifacts.js";

/**
 * What stands for each engine's vendor download in a rehearsal (the one swap of the boot path besides addresses
 * and disks): a folder laid out like the unpacked distribution, built from Maven Central, or a stand-in server
 * where the engine cannot run here. `note` is printed so the swap is never silent.
 */
export interface LocalArtifacts {
  engineArtifacts?: string;
  standIn?: string;
  note: string;
}

const PROVIDERS: Partial<Record<Engine, () => Promise<LocalArtifacts>>> = {
  async cassandra() {
    // scripts/setup-cassandra.sh prints <cache>/<version>/lib: the same lib/ the Apache tarball unpacks.
    const lib = await runSetupScript("setup-cassandra.sh");
    return {
      engineArtifacts: dirname(lib),
      note: `Cassandra from Maven Central jars (${dirname(lib)}) instead of the Apache tarball`,
    };
  },
  async hbase() {
    // scripts/setup-hbase-artifacts.sh lays out hadoop/ and hbase/ as the two tarballs unpack, from Maven Central jars.
    const dir = await runSetupScript("setup-hbase-artifacts.sh");
    return {
      engineArtifacts: dir,
      note: `Hadoop and HBase from Maven Central jars (${dir}) instead of the Apache tarballs; the same daemons, one JVM each`,
    };
  },
  async mongodb() {
    // No mongod can be installed here (DESIGN.md): FerretDB serves one node, and every result says so.
    const binary = await runSetupScript("setup-ferretdb.sh");
    return {
      standIn: binary,
      note: `${MONGODB_STAND_IN} (${binary}): no mongod can be installed on this machine; one node only`,
    };
  },
  async couchbase() {
    // No Couchbase Server can be installed here: the mock serves one node, KV only, the throughput preset only.
    const jar = await runSetupScript("setup-couchbase-mock.sh");
    return {
      standIn: jar,
      note: `${COUCHBASE_STAND_IN} (${jar}): Couchbase Server cannot be installed on this machine; one node, the "throughput" preset only`,
    };
  },
};

export async function localArtifacts(engine: Engine): Promise<LocalArtifacts> {
  const provider = PROVIDERS[engine];
  if (!provider) throw new Error(`rehearse: no local artifacts for ${engine} on this machine yet`);
  return provider();
}
