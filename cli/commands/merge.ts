import { DEFAULT_PERCENTILES, HdrLogError, type HdrMergeOptions, type HdrMergeResult } from "../../model/hdr/index.js";
import { HdrDirectoryError, mergeHdrDirectories } from "../../runner/hdr-files.js";
import { type Command, InputError, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab merge --hdr-dir DIR [--hdr-dir DIR ...] [--from S --to S] [--percentiles LIST]

Merges YCSB HDR interval logs (hdrhistogram.fileoutput=true: one <OPERATION>.hdr per client directory)
across clients and intervals, per operation, and prints JSON:
  { "operations": { "READ": { "count", "avgUs", "minUs", "maxUs", "percentilesUs": { "99": ... } } },
    "clients", "intervals" }
Percentiles come from the merged histogram, never from averaging the clients' percentiles. Every interval
of every log counts. Reads V1 (HdrHistogram 2.1.4, YCSB 0.17.0's default) and V2 (2.1.5+) logs.

Options:
  --hdr-dir DIR       one client's output directory (hdrhistogram.output.path); repeat for each client
  --from S            window start, seconds after each log's first interval start (inclusive)
  --to S              window end, seconds after each log's first interval start (exclusive)
  --percentiles LIST  comma-separated, default ${DEFAULT_PERCENTILES.join(",")}

Exit codes: 0 merged, 1 unreadable/empty/truncated log (message names file and line), 2 bad usage.`;

function seconds(flag: string, value: string | undefined): number {
  if (value === undefined) throw new UsageError(`${flag} needs a value in seconds`);
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new UsageError(`${flag} "${value}" is not a number of seconds >= 0`);
  return n;
}

export function parseMergeArgs(args: string[]): { dirs: string[]; opts: HdrMergeOptions } {
  const dirs: string[] = [];
  const opts: HdrMergeOptions = {};
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = args[i + 1];
    switch (flag) {
      case "--hdr-dir":
        if (value === undefined || value.startsWith("--")) throw new UsageError("--hdr-dir needs a directory");
        dirs.push(value);
        i++;
        break;
      case "--from":
        opts.fromSec = seconds(flag, value);
        i++;
        break;
      case "--to":
        opts.toSec = seconds(flag, value);
        i++;
        break;
      case "--percentiles": {
        if (value === undefined) throw new UsageError("--percentiles needs a comma-separated list");
        opts.percentiles = value.split(",").map((p) => {
          const n = Number(p);
          if (p.trim() === "" || !(n > 0 && n <= 100)) throw new UsageError(`percentile "${p}" is not in (0, 100]`);
          return n;
        });
        i++;
        break;
      }
      default:
        throw new UsageError(`unknown option "${flag}"`);
    }
  }
  if (dirs.length === 0) throw new UsageError("give at least one --hdr-dir");
  if (opts.fromSec !== undefined && opts.toSec !== undefined && opts.toSec <= opts.fromSec) {
    throw new UsageError(`--to ${opts.toSec} must be after --from ${opts.fromSec}`);
  }
  return { dirs, opts };
}

export const command: Command = {
  name: "merge",
  summary: "merge YCSB HDR interval logs across clients into percentiles",
  usage,
  async run(args) {
    const { dirs, opts } = parseMergeArgs(args);
    let result: HdrMergeResult;
    try {
      result = await mergeHdrDirectories(dirs, opts);
    } catch (err) {
      if (err instanceof HdrLogError || err instanceof HdrDirectoryError) throw new InputError(err.message);
      throw err;
    }
    const operations = Object.fromEntries(
      Object.entries(result.operations).map(([name, op]) => [
        name,
        { count: op.count, avgUs: op.avgUs, minUs: op.minUs, maxUs: op.maxUs, percentilesUs: op.percentilesUs },
      ]),
    );
    process.stdout.write(
      `${JSON.stringify({ operations, clients: result.clients, intervals: result.intervals }, null, 2)}\n`,
    );
    return 0;
  },
};
