import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import { createInterface } from "node:readline";
import { type Command, InputError, parseCommandArgs, UsageError } from "../command.js";
import { openStore } from "./store-access.js";

const usage = `Usage: ycsb-lab import FILE

Load what \`ycsb-lab export\` wrote into this store (DATABASE_URL, else the embedded PGlite in PGLITE_DIR), idempotently:
a run, source, reference table or baseline already there is left as it is, so a second import creates nothing. The
whole file is checked before anything is written (every line against its schema, model/transfer-format.ts), then
written in one transaction: a bad file, or a failure half-way, leaves the store as it was. The file is read as a
stream, line by line, however large. Prints what was created and what was already present, as JSON.`;

export const command: Command = {
  name: "import",
  summary: "Load runs written by `ycsb-lab export` into this store (idempotent)",
  usage,
  async run(args) {
    const { positionals } = parseCommandArgs({ args, strict: true, allowPositionals: true, options: {} });
    if (positionals.length !== 1) throw new UsageError("one FILE written by `ycsb-lab export`");
    const file = positionals[0]!;
    try {
      await access(file);
    } catch (err) {
      throw new InputError(`${file}: ${(err as Error).message}`);
    }
    const lines = () => createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    const { checkExport, importStore, TransferInputError } = await import("../../api/store/transfer.js");
    const named = (err: unknown) =>
      err instanceof TransferInputError ? new InputError(`${file}: ${err.message}`) : err;
    // Checked before the store is opened: a bad file creates not even a table.
    const checked = await checkExport(lines).catch((err: unknown) => Promise.reject(named(err)));
    const db = await openStore("import");
    try {
      console.log(
        JSON.stringify(
          await importStore(db.prisma, lines, checked).catch((err: unknown) => Promise.reject(named(err))),
        ),
      );
      return 0;
    } finally {
      await db.close();
    }
  },
};
