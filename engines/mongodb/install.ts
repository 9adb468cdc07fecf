import { basePackages } from "../common-install.js";
import { q } from "../shell.js";

/** MongoDB from its own apt repository (https://www.mongodb.com/docs/manual/tutorial/install-mongodb-on-ubuntu/). */
export function installMongo(version: string): string {
  const series = version.split(".").slice(0, 2).join(".");
  return [
    basePackages(),
    `curl -fsSL ${q(`https://pgp.mongodb.com/server-${series}.asc`)} | gpg --dearmor -o /usr/share/keyrings/mongodb-server-${series}.gpg`,
    `echo "deb [ arch=amd64,arm64 signed-by=/usr/share/keyrings/mongodb-server-${series}.gpg ] https://repo.mongodb.org/apt/ubuntu $(. /etc/os-release; echo "$VERSION_CODENAME")/mongodb-org/${series} multiverse" > /etc/apt/sources.list.d/mongodb-org-${series}.list`,
    "apt-get update -q",
    "apt-get install -y -q mongodb-org",
    // The package's own unit runs one mongod on 27017: ycsb-lab runs its own units per process.
    "systemctl disable --now mongod.service || true",
  ].join("\n");
}
