import { createServer, request, type IncomingMessage, type Server } from "node:http";

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
  status: number;
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

/**
 * A pass-through proxy in front of the emulator that records every call (who, what, and the emulator's answer),
 * so the rehearsal can judge each one by the role's policy itself: moto ignores IAM Condition blocks.
 */
export async function startRecordingProxy(target: string): Promise<{ endpoint: string; calls: RecordedCall[]; stop: () => Promise<void> }> {
  const upstream = new URL(target);
  const calls: RecordedCall[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://proxy");
    const target = req.headers["x-amz-target"] ? String(req.headers["x-amz-target"]) : undefined;
    const chunks: Buffer[] = [];
    let kept = 0;
    const up = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        calls.push({
          accessKeyId: accessKeyOf(req),
          method: req.method ?? "GET",
          path: pathStyle(String(req.headers.host ?? ""), url.pathname),
          query: Object.fromEntries(url.searchParams),
          ...(target ? { target, body: Buffer.concat(chunks).toString("utf8") } : {}),
          status: answer.statusCode ?? 0,
        });
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
      if (target && kept < 65_536) {
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
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
