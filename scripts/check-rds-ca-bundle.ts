/**
 * Compares kit/rds-global-bundle.pem (the RDS CA bundle the dashboard kit ships: cli/dashboard-boot.ts verifies the
 * database's certificate against it) with the one AWS publishes (RDS user guide, "Using SSL/TLS to encrypt a
 * connection to a DB instance or cluster": https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem), and
 * lists certificates either side lacks. Run online: npx tsx scripts/check-rds-ca-bundle.ts [--write]
 */
import { X509Certificate } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const FILE = fileURLToPath(new URL("../kit/rds-global-bundle.pem", import.meta.url));
const URL_ = "https://truststore.pki.rds.amazonaws.com/global/global-bundle.pem";
const certs = (pem: string) =>
  new Map(
    (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((p) => [
      new X509Certificate(p).fingerprint256,
      new X509Certificate(p),
    ]),
  );

const response = await fetch(URL_);
if (!response.ok) throw new Error(`GET ${URL_}: HTTP ${response.status}`);
const published = await response.text();
const ours = certs(readFileSync(FILE, "utf8"));
const theirs = certs(published);
for (const [fp, c] of theirs)
  if (!ours.has(fp)) console.log(`missing here: ${c.subject.replace(/\n/g, ", ")} (until ${c.validTo})`);
for (const [fp, c] of ours)
  if (!theirs.has(fp)) console.log(`no longer published: ${c.subject.replace(/\n/g, ", ")} (until ${c.validTo})`);
console.log(`${ours.size} certificates here, ${theirs.size} published`);
if (process.argv.includes("--write")) writeFileSync(FILE, published);
