import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

/**
 * The instance metadata service of each rehearsed instance, on a loopback address (EC2's is 169.254.169.254, which a
 * rehearsal never reaches): IMDSv2 only (a token first, as the stack requires: httpTokens "required"), the instance
 * id, and the Spot interruption notice a drill plants (EC2 User Guide, "Spot Instance interruption notices").
 * Credentials are not served here: the seam gives them as a credentials file (rehearse/seam.ts).
 */
export interface MetadataService {
  /** AWS_EC2_METADATA_SERVICE_ENDPOINT of an instance. */
  endpointOf(instance: string): string;
  /** Plants a Spot interruption notice for an instance: EC2 gives two minutes' warning. */
  interrupt(instance: string, action?: "terminate" | "stop"): void;
  stop(): Promise<void>;
}

export async function startMetadataService(
  address: string,
  instances: Array<{ name: string; instanceId: string }>,
): Promise<MetadataService> {
  const notices = new Map<string, { action: string; time: string }>();
  const servers: Array<{ name: string; server: Server; port: number }> = [];
  for (const i of instances) {
    const tokens = new Set<string>();
    const server = createServer((req, res) => {
      const path = (req.url ?? "/").split("?")[0];
      if (req.method === "PUT" && path === "/latest/api/token") {
        const token = randomBytes(16).toString("hex");
        tokens.add(token);
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(token);
        return;
      }
      if (!tokens.has(String(req.headers["x-aws-ec2-metadata-token"] ?? ""))) {
        res.writeHead(401);
        res.end();
        return;
      }
      const notice = notices.get(i.name);
      if (path === "/latest/meta-data/instance-id") return void res.end(i.instanceId);
      if (path === "/latest/meta-data/spot/instance-action" && notice) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(notice));
        return;
      }
      res.writeHead(404);
      res.end();
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, address, () => {
        const a = server.address();
        resolve(typeof a === "object" && a ? a.port : 0);
      });
    });
    servers.push({ name: i.name, server, port });
  }
  return {
    endpointOf: (name) => `http://${address}:${servers.find((s) => s.name === name)?.port ?? 0}`,
    interrupt: (name, action = "terminate") => {
      notices.set(name, { action, time: new Date(Date.now() + 120_000).toISOString().replace(/\.\d{3}Z$/, "Z") });
    },
    stop: async () => {
      // Their connections closed too, as the front's (front.ts): close() alone waits for any still open.
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.server.closeAllConnections();
              s.server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
