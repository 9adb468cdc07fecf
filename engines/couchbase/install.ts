import { basePackages } from "../common-install.js";
import { q } from "../shell.js";

/** The Community Edition build of the 7.6 series ycsb-lab installs (https://www.couchbase.com/downloads/). */
export const COUCHBASE_BUILDS: Record<string, string> = { "7.6": "7.6.2" };

export function couchbaseBuild(version: string): string {
  const build = COUCHBASE_BUILDS[version] ?? (/^\d+\.\d+\.\d+$/.test(version) ? version : undefined);
  if (!build) throw new Error(`version: no Couchbase build known for "${version}" (known: ${Object.keys(COUCHBASE_BUILDS).join(", ")})`);
  return build;
}

export function installCouchbase(version: string): string {
  const build = couchbaseBuild(version);
  const deb = `couchbase-server-community_${build}-linux_amd64.deb`;
  return [
    basePackages(),
    `curl -fsSL --retry 5 -o /tmp/${deb} ${q(`https://packages.couchbase.com/releases/${build}/${deb}`)}`,
    `apt-get install -y -q /tmp/${deb}`,
  ].join("\n");
}
