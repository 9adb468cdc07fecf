import { type Static, Type } from "@sinclair/typebox";
import { checkAgainst } from "./result-validation.js";
import { runPrefix } from "./results-layout.js";

/**
 * What the dashboard service boots from (`runs/<serviceId>/service.json` in the service's own bucket, uploaded by
 * infra/dashboard-service.ts, read by `ycsb-lab boot --role dashboard`): like a run's cluster.json, the one place the
 * stack tells its instance what to serve. Secrets are named by ARN, never carried: the instance reads them from
 * Secrets Manager with its role.
 */
export const ServiceDescriptionSchema = Type.Object(
  {
    serviceId: Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,40}$" }),
    region: Type.String(),
    /** The port the API and dashboard listen on. */
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    /** Results buckets imported by polling (each a scenario stack's bucket), read-only. */
    importBuckets: Type.Array(
      Type.Object({ bucket: Type.String({ minLength: 3 }), prefix: Type.String() }, { additionalProperties: false }),
    ),
    pollSeconds: Type.Integer({ minimum: 5 }),
    /** Secrets Manager secret holding the write token (a plain string). */
    writeTokenSecretArn: Type.String({ minLength: 1 }),
    /** Reads need a token (the read token secret, or the write token): set when the service is reachable beyond Session Manager. */
    protectReads: Type.Boolean(),
    /** Secrets Manager secret holding the read token, when reads are protected. */
    readTokenSecretArn: Type.Optional(Type.String({ minLength: 1 })),
    database: Type.Object(
      {
        host: Type.String({ minLength: 1 }),
        port: Type.Integer({ minimum: 1, maximum: 65535 }),
        name: Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]*$" }),
        /** The secret with {"username","password"} (RDS's managed master user secret). */
        secretArn: Type.String({ minLength: 1 }),
        /**
         * PostgreSQL sslmode: "verify-full" checks RDS's certificate chain against the RDS CA bundle the dashboard kit
         * carries and its name against the host (RDS user guide, "Using SSL/TLS to encrypt a connection to a DB
         * instance or cluster"); "require" encrypts without checking (older service descriptions); "disable" only
         * for a rehearsal's local PostgreSQL.
         */
        sslMode: Type.Union([Type.Literal("verify-full"), Type.Literal("require"), Type.Literal("disable")]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type ServiceDescription = Static<typeof ServiceDescriptionSchema>;

export const serviceDescriptionKey = (serviceId: string): string => `${runPrefix(serviceId)}service.json`;

export function parseServiceDescription(text: string, where: string): ServiceDescription {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: not JSON: ${(err as Error).message}`);
  }
  const problems = checkAgainst(ServiceDescriptionSchema, value);
  if (problems.length > 0)
    throw new Error(`${where}: not a service description: ${problems.map((p) => `${p.path} ${p.message}`).join("; ")}`);
  return value as ServiceDescription;
}

/** The PostgreSQL URL of a described database with the secret's credentials (user and password URL-encoded). */
export function databaseUrl(
  d: ServiceDescription["database"],
  credentials: { username: string; password: string },
): string {
  const user = encodeURIComponent(credentials.username);
  const password = encodeURIComponent(credentials.password);
  const ssl =
    d.sslMode === "require" ? "?sslmode=no-verify" : d.sslMode === "verify-full" ? "?sslmode=verify-full" : "";
  return `postgresql://${user}:${password}@${d.host}:${d.port}/${d.name}${ssl}`;
}
