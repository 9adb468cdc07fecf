import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../runner/java-artifacts.js";

/**
 * The rehearsal's certificate authority: the images trust it (rehearse/os-image.ts), and the front
 * (rehearse/front.ts) answers for AWS's and the vendors' host names with a certificate it signed. So an instance's
 * TLS clients (Python's urllib, Node.js, apt) verify every certificate as on EC2, with nothing switched off. It is
 * made once per checkout (.cache/os/ca) and never leaves this machine.
 */
export interface RehearsalCa {
  certificate: string;
  keyFile: string;
  certificateFile: string;
}

const dir = () => join(REPO_ROOT, ".cache", "os", "ca");

function openssl(args: string[], cwd: string): void {
  const out = spawnSync("openssl", args, { cwd, encoding: "utf8" });
  if (out.status !== 0)
    throw new Error(`openssl ${args[0]} failed: ${(out.stderr || out.error?.message || "").trim()}`);
}

export function rehearsalCa(): RehearsalCa {
  const d = dir();
  const certificateFile = join(d, "ca.crt");
  const keyFile = join(d, "ca.key");
  if (!existsSync(certificateFile) || !existsSync(keyFile)) {
    mkdirSync(d, { recursive: true, mode: 0o700 });
    openssl(
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-sha256",
        "-days",
        "3650",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-subj",
        "/CN=ycsb-lab rehearsal CA (this machine only)",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
      ],
      d,
    );
  }
  return { certificate: readFileSync(certificateFile, "utf8"), keyFile, certificateFile };
}

/** A server certificate for these host names (wildcards as TLS knows them), signed by the CA; cached by its names. */
export function serverCertificate(ca: RehearsalCa, names: string[]): { key: string; cert: string } {
  const sorted = [...new Set(names)].sort();
  const id = createHash("sha256").update(sorted.join(",")).digest("hex").slice(0, 16);
  const d = join(dir(), `server-${id}`);
  if (!existsSync(join(d, "server.crt"))) {
    mkdirSync(d, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(d, "ext.cnf"),
      `subjectAltName=${sorted.map((n) => `DNS:${n}`).join(",")}\nextendedKeyUsage=serverAuth\n`,
    );
    openssl(
      [
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=ycsb-lab rehearsal front",
      ],
      d,
    );
    openssl(
      [
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        ca.certificateFile,
        "-CAkey",
        ca.keyFile,
        "-CAcreateserial",
        "-days",
        "825",
        "-sha256",
        "-extfile",
        "ext.cnf",
        "-out",
        "server.crt",
      ],
      d,
    );
  }
  return { key: readFileSync(join(d, "server.key"), "utf8"), cert: readFileSync(join(d, "server.crt"), "utf8") };
}
