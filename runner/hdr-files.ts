import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { type HdrMergeOptions, type HdrMergeResult, HdrMerger } from "../model/hdr/index.js";

/** A directory of one client's `<OPERATION>.hdr` logs that cannot be used (missing, unreadable, no logs). */
export class HdrDirectoryError extends Error {}

/** The `.hdr` files of one client's output directory (YCSB's `hdrhistogram.output.path`), sorted. */
export async function listHdrLogs(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    throw new HdrDirectoryError(`${dir}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  const logs = names.filter((n) => n.endsWith(".hdr")).sort();
  if (logs.length === 0) throw new HdrDirectoryError(`${dir}: no .hdr interval logs`);
  return logs.map((n) => join(dir, n));
}

/**
 * Merges the interval logs of several clients' directories (one directory per client) per operation.
 * Files are read one at a time, so 64 clients x 1 h of logs need not sit in memory together.
 */
export async function mergeHdrDirectories(dirs: string[], opts: HdrMergeOptions = {}): Promise<HdrMergeResult> {
  if (dirs.length === 0) throw new HdrDirectoryError("no HDR log directories given");
  const merger = new HdrMerger(opts);
  for (const dir of dirs) {
    for (const file of await listHdrLogs(dir)) {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (err) {
        throw new HdrDirectoryError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? err})`);
      }
      merger.addLog({ client: dir, operation: basename(file, ".hdr"), text, source: file });
    }
  }
  return merger.result();
}
