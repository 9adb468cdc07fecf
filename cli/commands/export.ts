import { once } from "node:events";
import { createWriteStream, renameSync } from "node:fs";
import { type Command, parseCommandArgs } from "../command.js";
import { openStore } from "./store-access.js";

const usage = `Usage: ycsb-lab export [--out FILE]

Write every stored run (measured and published), its phases, client results, operation groups, status series, HDR
log references and verdicts, the sources, the seeds' reference tables and the baselines as JSON lines (one object per
line, first a header): a backup beside RDS snapshots, or what \`ycsb-lab import\` loads into another store. The store
is DATABASE_URL, else the embedded PGlite in PGLITE_DIR (stop \`ycsb-lab serve\` on it first).

  --out FILE   write here (written beside it and renamed when complete); default standard output`;

export const command: Command = {
  name: "export",
  summary: "Write every stored run (measured and published) as JSON lines",
  usage,
  async run(args) {
    const { values } = parseCommandArgs({ args, strict: true, options: { out: { type: "string" } } });
    const db = await openStore("export");
    const { exportStore } = await import("../../api/store/transfer.js");
    const partial = values.out ? `${values.out}.partial` : undefined;
    const out = partial ? createWriteStream(partial) : process.stdout;
    const counts: Record<string, number> = {};
    try {
      for await (const line of exportStore(db.prisma)) {
        counts[line.kind] = (counts[line.kind] ?? 0) + 1;
        if (!out.write(`${JSON.stringify(line)}\n`)) await once(out, "drain");
      }
    } finally {
      await db.close();
    }
    if (partial && values.out) {
      (out as ReturnType<typeof createWriteStream>).end();
      await once(out, "finish");
      renameSync(partial, values.out);
    }
    console.error(
      `ycsb-lab export: ${counts.run ?? 0} run(s), ${counts.source ?? 0} source(s), ${counts["reference-table"] ?? 0} reference table(s), ${counts.baseline ?? 0} baseline(s)${values.out ? ` -> ${values.out}` : ""}`,
    );
    return 0;
  },
};
