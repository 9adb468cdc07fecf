import type { PrismaClient } from "../../prisma/generated/client.js";

/** The store's Prisma client (either store: Postgres or PGlite behind a driver adapter; api/db/open.ts opens it). */
export type Db = InstanceType<typeof PrismaClient>;
