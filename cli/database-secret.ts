import pg from "pg";

/**
 * The dashboard service's PostgreSQL pool over RDS, whose master password RDS rotates in Secrets Manager (every 7 days
 * by default: RDS user guide, "Password management with Amazon RDS and AWS Secrets Manager"). The pool asks for the
 * password at every new connection; when the server refuses it (SQLSTATE 28P01 invalid_password, 28000
 * invalid_authorization_specification: PostgreSQL manual, "PostgreSQL Error Codes"), the secret is read again and the
 * connection tried once more, so a rotation under a running service costs one slower connection, not an outage.
 */
export interface DatabaseSecret {
  /** The password as last read. */
  password(): string;
  /** Reads the secret again (at most once per `minIntervalMs`); resolves with whether the password changed. */
  refresh(): Promise<boolean>;
}

const AUTH_FAILURES = new Set(["28P01", "28000"]);
export const isAuthFailure = (err: unknown): boolean =>
  AUTH_FAILURES.has(String((err as { code?: unknown })?.code ?? ""));

/** A secret read through `read`, kept in memory, read again on demand but never more often than `minIntervalMs`. */
export function databaseSecret(
  initial: string,
  read: () => Promise<string>,
  o: { minIntervalMs?: number; log?: (line: string) => void } = {},
): DatabaseSecret {
  let current = initial;
  // The first refusal always reads the secret again; later ones at most once per interval.
  let lastRead = 0;
  let pending: Promise<boolean> | undefined;
  return {
    password: () => current,
    refresh() {
      if (pending) return pending;
      if (Date.now() - lastRead < (o.minIntervalMs ?? 10_000)) return Promise.resolve(false);
      pending = read()
        .then((next) => {
          lastRead = Date.now();
          const changed = next !== current;
          current = next;
          o.log?.(
            `database secret read again after an authentication failure${changed ? ": the password has changed (rotated)" : ": unchanged"}`,
          );
          return changed;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
  };
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;

/** A pg pool that reads the password again and retries once when the server refuses the one it has. */
export class SecretBackedPool extends pg.Pool {
  constructor(
    config: Omit<pg.PoolConfig, "password">,
    private readonly secret: DatabaseSecret,
  ) {
    super({ ...config, password: () => secret.password() });
  }

  private async connectRetrying(): Promise<pg.PoolClient> {
    try {
      return await super.connect();
    } catch (err) {
      if (!isAuthFailure(err)) throw err;
      await this.secret.refresh();
      return super.connect();
    }
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const connected = this.connectRetrying();
    if (!callback) return connected;
    connected.then(
      (client) =>
        callback(undefined, client, (release?: unknown) => client.release(release as boolean | Error | undefined)),
      (err: Error) => callback(err),
    );
  }
}
