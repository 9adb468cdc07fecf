import { readFile, stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseYcsbOutput, YcsbOutputError } from "../../runner/ycsb-output/index.js";
import { type Command, InputError, UsageError } from "../command.js";

const usage = `Usage: ycsb-lab parse --stdout FILE [--stderr FILE] [--hdr-dir DIR]...

Parse what one YCSB 0.17.0 client printed and print it as JSON (a ClientOutput of the result document).

  --stdout FILE   the client's stdout: the summary (text or JSONArrayMeasurementsExporter, any measurementtype)
  --stderr FILE   the client's stderr: the -s status lines become "statusSeries" (columns, one entry per line)
  --hdr-dir DIR   a folder of HDR interval logs (hdrhistogram.fileoutput=true); repeat for several clients.
                  Their merged percentiles are added as "hdrMerged"

Exit codes: 0 parsed, 1 unreadable, empty or truncated input, 2 wrong usage.`;

/** The file's bytes: the parser reads them as they are (no decoded copy of a long stderr). */
async function readInput(file: string, what: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    throw new InputError(
      `cannot read ${what} file "${file}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** The HDR merge (runner/hdr-files over model/hdr), loaded only when asked for: plain parsing stays light. */
async function mergeHdr(dirs: string[]): Promise<unknown> {
  for (const dir of dirs) {
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new InputError(`--hdr-dir "${dir}" is not a readable directory`);
  }
  const { mergeHdrDirectories } = await import("../../runner/hdr-files.js");
  try {
    return await mergeHdrDirectories(dirs);
  } catch (err) {
    throw new InputError(`--hdr-dir: ${(err as Error).message}`);
  }
}

export const command: Command = {
  name: "parse",
  summary: "Parse one YCSB client's stdout/stderr into the result document's JSON",
  usage,
  async run(args) {
    let values: { stdout?: string; stderr?: string; "hdr-dir"?: string[] };
    try {
      ({ values } = parseArgs({
        args,
        options: {
          stdout: { type: "string" },
          stderr: { type: "string" },
          "hdr-dir": { type: "string", multiple: true },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (!values.stdout) throw new UsageError("--stdout FILE is required");
    const stdout = await readInput(values.stdout, "--stdout");
    const stderr = values.stderr ? await readInput(values.stderr, "--stderr") : Buffer.alloc(0);
    let result: Record<string, unknown>;
    try {
      result = parseYcsbOutput(stdout, stderr);
    } catch (err) {
      if (err instanceof YcsbOutputError) {
        const file = err.stream === "stderr" ? values.stderr : values.stdout;
        throw new InputError(`${file}: ${err.message}`);
      }
      throw err;
    }
    if (values["hdr-dir"]?.length) result = { ...result, hdrMerged: await mergeHdr(values["hdr-dir"]) };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  },
};
