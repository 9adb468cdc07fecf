import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { PolicyDocument } from "../infra/policies.js";
import {
  accessDeniedBody,
  judgeAnswer,
  judgeRequest,
  type S3Call,
  type S3Scope,
  type S3Verdict,
} from "./s3-semantics.js";

/** One AWS call an instance made, as the rehearsal saw it pass to the emulator. */
export interface RecordedCall {
  accessKeyId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** X-Amz-Target (JSON APIs such as SSM). */
  target?: string;
  /** The request body of a JSON API call (SSM names the parameter there); never an S3 object's body. */
  body?: string;
  /** What the caller was answered: the emulator's status, or the proxy's own where S3 answers differently. */
  status: number;
  /** Set when the proxy answered as S3 does instead of the emulator (rehearse/s3-semantics.ts). */
  rule?: "policy" | "missing-key-without-list";
}

/** How S3 judges a principal's calls (rehearse/s3-semantics.ts): the policy of the caller's access key, if tracked. */
export interface S3Semantics {
  policyOf(accessKeyId: string): PolicyDocument | undefined;
  scope: S3Scope;
}

export interface RecordingProxy {
  endpoint: string;
  calls: RecordedCall[];
  stop: () => Promise<void>;
}

/**
 * The call's path in S3's path style: a virtual-hosted request (Host `<bucket>.s3.<region>.amazonaws.com`, as the
 * SDKs and user-data send it on AWS) names its bucket in the host, which the audit needs in the path.
 */
export function pathStyle(host: string, pathname: string): string {
  const bucket = /^([a-z0-9][a-z0-9.-]*)\.s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com(?::\d+)?$/.exec(host)?.[1];
  return bucket ? `/${bucket}${pathname}` : pathname;
}

function accessKeyOf(req: IncomingMessage): string {
  const auth = String(req.headers.authorization ?? "");
  return /Credential=([^/,\s]+)\//.exec(auth)?.[1] ?? "";
}

/** S3's 403 AccessDenied, with its error document unless the request was a HEAD. */
function refuse(res: ServerResponse, method: string): void {
  const requestId = randomBytes(8).toString("hex").toUpperCase();
  const body = method === "HEAD" ? "" : accessDeniedBody(requestId);
  res.writeHead(403, {
    "content-type": "application/xml",
    "content-length": Buffer.byteLength(body),
    "x-amz-request-id": requestId,
  });
  res.end(body);
}

/**
 * A proxy in front of the emulator that records every call (who, what, and the answer), so the rehearsal can judge
 * each one by the role's policy itself. With `semantics`, it also answers S3 calls of tracked principals as S3 does
 * where moto is kinder (rehearse/s3-semantics.ts): a request the policy's conditions refuse, and a missing key read
 * without s3:ListBucket, get 403 AccessDenied.
 */
export async function startRecordingProxy(target: string, semantics?: S3Semantics): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const calls: RecordedCall[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://proxy");
    const amzTarget = req.headers["x-amz-target"] ? String(req.headers["x-amz-target"]) : undefined;
    const accessKeyId = accessKeyOf(req);
    const method = req.method ?? "GET";
    const call: S3Call = {
      method,
      path: pathStyle(String(req.headers.host ?? ""), url.pathname),
      query: Object.fromEntries(url.searchParams),
    };
    const policy = amzTarget ? undefined : semantics?.policyOf(accessKeyId);
    const chunks: Buffer[] = [];
    let kept = 0;
    const record = (status: number, verdict?: S3Verdict) =>
      calls.push({
        accessKeyId,
        ...call,
        ...(amzTarget ? { target: amzTarget, body: Buffer.concat(chunks).toString("utf8") } : {}),
        status,
        ...(verdict?.kind === "refuse" ? { rule: verdict.rule } : {}),
      });
    const before = policy ? judgeRequest(call, policy, semantics!.scope) : undefined;
    if (before?.kind === "refuse") {
      req.resume();
      req.on("end", () => {
        record(403, before);
        refuse(res, method);
      });
      return;
    }
    const up = request(
      { host: upstream.hostname, port: upstream.port, method, path: req.url, headers: req.headers },
      (answer) => {
        const after = policy ? judgeAnswer(call, policy, semantics!.scope, answer.statusCode ?? 0) : undefined;
        if (after?.kind === "refuse") {
          answer.resume();
          record(403, after);
          refuse(res, method);
          return;
        }
        record(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on("error", (err) => {
      res.writeHead(502);
      res.end(err.message);
    });
    req.on("data", (c: Buffer) => {
      // JSON API bodies are small; an S3 upload's body is never kept.
      if (amzTarget && kept < 65_536) {
        chunks.push(c);
        kept += c.length;
      }
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    // Its connections are closed too (the instances are gone by then): close() alone waits for a request still open
    // (one the emulator never answered), which held a rehearsal's stop without a bound.
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
