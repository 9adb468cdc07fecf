import type { SqlWriter } from "../../db/pg-direct.js";

/**
 * What keeping the aggregates needs: raw reads and writes, on the client, inside Prisma's interactive transaction or
 * a transaction on the pool (api/db/pg-direct.ts).
 */
export type Writer = SqlWriter;
