import { isEngine } from "../../model/engine.js";
import { type Command, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab kit build --engine E | --service [--out DIR] [--json]

Builds the kit a stack ships to its instances: the instance CLI bundled with its dependencies, YCSB core,
HdrHistogram and our binding of the engine, as one archive named by its SHA-256 (the stack uploads it to
kits/<sha256>.tar.gz in the results bucket; instances fetch it from there). The same sources give the same
archive, so an unchanged kit is never uploaded twice. Needs Java 17 and Maven the first time (the bindings).
Without a checkout, \`ycsb-lab kit build\` of the @ycsb-lab/cli package makes the same archive
(see docs/packages.md, "A kit from the package").

Options:
  --engine E     cassandra, mongodb, couchbase or hbase
  --service      the dashboard kit instead (DashboardService): the API, the built dashboard and the migrations
  --out DIR      where to write the archive (default .cache/kits)
  --json         print {path, sha256, version, bytes} as JSON
`;

export const command: Command = {
  name: "kit",
  summary: "Build the kit a stack ships to its instances (the CLI bundle and the Java pieces)",
  usage,
  async run(args) {
    const { values, positionals } = parseCommandArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        engine: { type: "string" },
        service: { type: "boolean" },
        out: { type: "string" },
        json: { type: "boolean" },
      },
    });
    if (positionals[0] !== "build" || positionals.length !== 1) throw new UsageError('expected the subcommand "build"');
    if (values.service) {
      if (values.engine) throw new UsageError("--service or --engine, not both");
      const { buildServiceKit } = await import("../../kit/build.js");
      const kit = await buildServiceKit({
        ...(values.out ? { outDir: values.out } : {}),
        log: (l) => process.stderr.write(`${l}\n`),
      });
      process.stdout.write(values.json ? `${JSON.stringify(kit)}\n` : `${kit.path}\n`);
      return 0;
    }
    if (!isEngine(values.engine))
      throw new UsageError(`--engine: cassandra, mongodb, couchbase or hbase, got "${values.engine ?? ""}"`);
    const { buildKit } = await import("../../kit/build.js");
    const kit = await buildKit(values.engine, {
      ...(values.out ? { outDir: values.out } : {}),
      log: (l) => process.stderr.write(`${l}\n`),
    });
    process.stdout.write(values.json ? `${JSON.stringify(kit)}\n` : `${kit.path}\n`);
    return 0;
  },
};
