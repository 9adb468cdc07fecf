import { resolve } from "node:path";
import { isEngine } from "../../model/engine.js";
import { currentKit } from "../../runner/kit-layout.js";
import { type Command, parseCommandArgs, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab kit build --engine E [--out DIR] [--maven-repo URL] [--cache DIR] [--json]

Builds the kit a stack ships to its instances (BenchmarkScenario's kit) from this package: its instance CLI,
YCSB core, HdrHistogram, our binding of the engine, and the binding's drivers downloaded from a Maven repository,
each checked against the SHA-256 this package pins. The archive is named by its SHA-256 and is byte for byte the
kit \`ycsb-lab kit build\` makes in the checkout this package was packed from. No Java, Maven or checkout needed.

Options:
  --engine E        cassandra, mongodb, couchbase or hbase
  --out DIR         where to write the archive (default .cache/kits in the working directory)
  --maven-repo URL  a Maven 2 repository or mirror: https, http or file (default https://repo.maven.apache.org/maven2)
  --cache DIR       where downloaded jars are kept, named by SHA-256 (default $XDG_CACHE_HOME/ycsb-lab/maven,
                    else ~/.cache/ycsb-lab/maven)
  --json            print {engine, path, sha256, version, bytes, files} as JSON (path absolute): what
                    BenchmarkScenario's kit argument takes
`;

/** `ycsb-lab kit build` of the @ycsb-lab/cli package (cli/package-main.ts); a checkout's is cli/commands/kit.ts. */
export const command: Command = {
  name: "kit",
  summary: "Build the kit a stack ships to its instances, from this package and Maven Central",
  usage,
  async run(args) {
    const options = {
      engine: { type: "string" },
      out: { type: "string" },
      "maven-repo": { type: "string" },
      cache: { type: "string" },
      json: { type: "boolean" },
      service: { type: "boolean" },
    } as const;
    const parsed = parseCommandArgs({ args, strict: true, allowPositionals: true, options });
    const { values, positionals } = parsed;
    if (positionals[0] !== "build" || positionals.length !== 1) throw new UsageError('expected the subcommand "build"');
    if (values.service)
      throw new UsageError(
        "--service: the dashboard kit is built in a checkout of ycsb-lab (the server package serves without one)",
      );
    if (!isEngine(values.engine))
      throw new UsageError(`--engine: cassandra, mongodb, couchbase or hbase, got "${values.engine ?? ""}"`);
    const root = currentKit()?.root;
    if (!root) throw new UsageError("kit build here runs from the installed @ycsb-lab/cli package");
    const { buildKitFromPackage } = await import("../../kit/from-package.js");
    const kit = await buildKitFromPackage(root, values.engine, {
      // Absolute: the JSON is read by a Pulumi program that may run from another folder.
      outDir: resolve(values.out ?? ".cache/kits"),
      ...(values["maven-repo"] ? { repository: values["maven-repo"] } : {}),
      ...(values.cache ? { cacheDir: values.cache } : {}),
      log: (l) => process.stderr.write(`${l}\n`),
    });
    process.stdout.write(values.json ? `${JSON.stringify(kit)}\n` : `${kit.path}\n`);
    return 0;
  },
};
