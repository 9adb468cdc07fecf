import type { Db } from "../../db/client.js";

/** What keeping the aggregates needs: raw reads and writes, on the client or inside an interactive transaction. */
export type Writer = Pick<Db, "$queryRaw" | "$executeRaw">;
