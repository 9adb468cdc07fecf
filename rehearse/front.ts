import { createReadStream, statSync } from "node:fs";
import { type IncomingMessage, request, type ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { RehearsalCa } from "./rehearsal-ca.js";
import { serverCertificate } from "./rehearsal-ca.js";
import type { VendorFile } from "./vendor-mirror.js";

/**
 * The rehearsal's stand-in for the internet an instance reaches over TLS: AWS's regional endpoints and the vendors'
 * download hosts, on one loopback address (port 443) that every instance's /etc/hosts names for them. It answers
 * with a certificate of the rehearsal's CA (which the images trust), so clients verify TLS as on EC2 and user-data
 * runs unchanged. AWS calls go, Host header and signature intact, to the rehearsal's S3/IAM path (the recording
 * proxy in front of moto); vendor downloads come from local files (rehearse/vendor-mirror.ts), and a URL it has no
 * file for is refused and recorded, never fetched from the internet.
 */
export interface FrontOptions {
  /** The loopback address it binds (port 443). */
  address: string;
  /** http://127.0.0.1:port of the AWS side (the recording proxy). */
  awsUpstream: string;
  region: string;
  /** Buckets the instances address by virtual host (/etc/hosts has no wildcards). */
  buckets: string[];
  files: VendorFile[];
  ca: RehearsalCa;
}

/** A fault a drill plants on one vendor URL: the body served instead of the file. */
export type Fault = (url: string) => string | undefined;

export interface Front {
  address: string;
  /** The /etc/hosts lines an instance needs to reach AWS and the vendors through the front. */
  hosts: string;
  /** The same for an instance that also addresses other buckets (the dashboard service's own). */
  hostsFor(buckets: string[]): string;
  /** Vendor URLs asked for that the rehearsal has no file for (what an instance would download on AWS). */
  unserved: string[];
  /** Every vendor URL served, with where its bytes came from. */
  served: Map<string, string>;
  setFault(fault: Fault | undefined): void;
  stop(): Promise<void>;
}

const VENDOR_HOSTS = [
  "nodejs.org",
  "archive.apache.org",
  "downloads.apache.org",
  "dlcdn.apache.org",
  "fastdl.mongodb.org",
  "packages.couchbase.com",
];

/** The AWS host names a rehearsed instance calls: S3 (virtual-hosted and path style), SSM, Secrets Manager, STS. */
export function awsHostNames(region: string, buckets: string[]): string[] {
  const services = ["ssm", "secretsmanager", "sts", "ec2"].map((s) => `${s}.${region}.amazonaws.com`);
  return [
    `s3.${region}.amazonaws.com`,
    "s3.amazonaws.com",
    ...buckets.flatMap((b) => [`${b}.s3.${region}.amazonaws.com`, `${b}.s3.amazonaws.com`]),
    ...services,
  ];
}

function certificateNames(region: string): string[] {
  return [
    `s3.${region}.amazonaws.com`,
    `*.s3.${region}.amazonaws.com`,
    "s3.amazonaws.com",
    "*.s3.amazonaws.com",
    ...["ssm", "secretsmanager", "sts", "ec2"].map((s) => `${s}.${region}.amazonaws.com`),
    ...VENDOR_HOSTS,
  ];
}

function serveFile(res: ServerResponse, file: string): void {
  const size = statSync(file).size;
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(size) });
  createReadStream(file).pipe(res);
}

function forward(req: IncomingMessage, res: ServerResponse, upstream: URL): void {
  const up = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  up.on("error", (err) => {
    res.writeHead(502, { "content-type": "text/plain" });
    res.end(`rehearsal: the AWS side did not answer: ${err.message}`);
  });
  req.pipe(up);
}

export async function startFront(o: FrontOptions): Promise<Front> {
  const upstream = new URL(o.awsUpstream);
  const byUrl = new Map(o.files.map((f) => [f.url, f]));
  const unserved: string[] = [];
  const served = new Map<string, string>();
  let fault: Fault | undefined;
  const server: Server = createServer(serverCertificate(o.ca, certificateNames(o.region)), (req, res) => {
    const host = String(req.headers.host ?? "").replace(/:443$/, "");
    if (host.endsWith(".amazonaws.com")) return forward(req, res, upstream);
    const url = `https://${host}${req.url ?? "/"}`;
    const planted = fault?.(url);
    if (planted !== undefined) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(planted);
      return;
    }
    const file = byUrl.get(url);
    if (!file || req.method !== "GET") {
      unserved.push(url);
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`rehearsal: ${url} is not served here (on AWS the instance downloads it from ${host})\n`);
      return;
    }
    served.set(url, file.source);
    serveFile(res, file.file);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(443, o.address, () => resolve());
  });
  const hostsFor = (buckets: string[]) =>
    [...new Set([...awsHostNames(o.region, buckets), ...VENDOR_HOSTS])].map((n) => `${o.address} ${n}`).join("\n");
  return {
    address: o.address,
    hosts: hostsFor(o.buckets),
    hostsFor,
    unserved,
    served,
    setFault: (f) => {
      fault = f;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
