import { openDatabase } from "./api/db/open.js";
import { freshPostgresDatabase } from "./test/api-helpers.js";
import { FlakyProxy } from "./test/runner-helpers.js";
const url = new URL(await freshPostgresDatabase("scratch_outage"));
const proxy = new FlakyProxy(Number(url.port)); await proxy.up(); url.port = String(proxy.port);
const db = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
await db.prisma.$queryRaw`SELECT 1`;
await proxy.down();
for (const q of [() => db.prisma.$queryRaw`SELECT 1`, () => db.prisma.run.findMany(), () => db.prisma.$transaction(async (tx) => tx.run.count())]) {
  const t = Date.now();
  try { await q(); console.log("ok?"); } catch (e: any) { console.log(Date.now() - t, "ms", e.constructor?.name, e.code, e.name, JSON.stringify(e.meta), String(e.message).slice(0, 300).replace(/\n/g, " ")); }
}
await proxy.up();
await db.prisma.$queryRaw`SELECT 1`; console.log("back");
await db.close();
