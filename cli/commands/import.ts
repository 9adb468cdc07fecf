import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { InputError, UsageError, type Command } from "../command.js";
import { openStore } from "./store-access.js";

const usage = `Usage: ycsb-lab import FILE

Load what \`ycsb-lab export\` wrote into this store (DATABASE_URL, else the embedded PGlite in PGLITE_DIR), idempotently:
a run, source, reference table or baseline already there is left as it is, so a second import creates nothing. The
whole file is checked before anything is written; each run goes in with all its rows at once. Prints what was created
and what was already present, as JSON.`;

export const command: Command = {
  name: "import",
  summary: "Load runs written by `ycsb-lab export` into this store (idempotent)",
  usage,
  async run(args) {
    let positionals;
    try {
      ({ positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: {} }));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (positionals.length !== 1) throw new UsageError("one FILE written by `ycsb-lab export`");
    const file = positionals[0]!;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (err) {
      throw new InputError(`${file}: ${(err as Error).message}`);
    }
    const { importStore, parseExport, TransferInputError } = await import("../../api/store/transfer.js");
    let lines;
    try {
      lines = parseExport(text);
    } catch (err) {
      if (err instanceof TransferInputError) throw new InputError(`${file}: ${err.message}`);
      throw err;
    }
    const db = await openStore("import");
    try {
      console.log(JSON.stringify(await importStore(db.prisma, lines)));
      return 0;
    } finally {
      await db.close();
    }
  },
};
