import { timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { AppConfig } from "../../config.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The name of the write token the request carried (set by requireToken). */
    tokenName?: string;
  }
  interface FastifyInstance {
    /** onRequest hook of writes: a valid bearer token or 401, before the body is read. */
    requireToken: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** onRequest hook of reads: open unless YCSB_LAB_PROTECT_READS=1, then the read or the write token. */
    readAccess: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** A read credential: `Bearer <token>`, or HTTP Basic with the token as password (any user name). */
function readCredentialMatches(header: string | undefined, tokens: string[]): boolean {
  if (tokens.some((t) => tokenMatches(header, t))) return true;
  const m = /^Basic\s+(\S+)$/i.exec(header ?? "");
  if (!m) return false;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const password = decoded.slice(decoded.indexOf(":") + 1);
  return tokens.some((t) => tokenMatches(`Bearer ${password}`, t));
}

/** The write tokens, each with its name (what the audit records as who acted). */
export function writeTokens(config: AppConfig): { name: string; token: string }[] {
  return [
    ...(config.token ? [{ name: config.tokenName ?? "write-token", token: config.token }] : []),
    ...(config.namedTokens ?? []),
  ];
}

export default fp<{ config: AppConfig }>(
  async (app, { config }) => {
    const tokens = writeTokens(config);
    const requireToken = async (req: FastifyRequest, reply: FastifyReply) => {
      // No token configured means writes are closed, never open. Every token is compared, so the time does not say which.
      const matched = tokens.filter((t) => tokenMatches(req.headers.authorization, t.token));
      if (matched.length > 0) req.tokenName = matched[0]!.name;
      if (matched.length === 0) {
        reply.header("www-authenticate", 'Bearer realm="ycsb-lab"');
        // The body was never read: close the connection rather than drain what an unauthenticated client still sends.
        if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined)
          reply.header("connection", "close");
        throw app.httpErrors.unauthorized("a valid bearer token is required (Authorization: Bearer <YCSB_LAB_TOKEN>)");
      }
    };
    app.decorate("requireToken", requireToken);
    app.decorate("readAccess", async (req: FastifyRequest, reply: FastifyReply) => {
      if (!config.protectReads) return;
      const readable = [...tokens.map((t) => t.token), ...(config.readToken ? [config.readToken] : [])];
      if (!readCredentialMatches(req.headers.authorization, readable)) {
        // Basic first: a browser opening the dashboard asks its user for the read token and sends it with every fetch.
        reply.header("www-authenticate", 'Basic realm="ycsb-lab", charset="UTF-8"');
        throw app.httpErrors.unauthorized(
          "reads need a token (Authorization: Bearer <read or write token>, or Basic with the token as password)",
        );
      }
    });
  },
  { name: "auth", dependencies: ["sensible"] },
);
