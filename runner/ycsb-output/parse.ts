import type { ClientOutput, StatusSeries } from "../../model/result-document.js";
import { emptyStatusSeries } from "../../model/status-series.js";
import { asBytes, isBlank, textOf } from "./bytes.js";
import { YcsbOutputError } from "./errors.js";
import { RawPoints } from "./raw-points.js";
import { StatusLineReader } from "./status-line.js";
import { StatusSeriesBuilder } from "./status-series-builder.js";
import { type Origin, SummaryBuilder } from "./summary.js";

type Stream = "stdout" | "stderr";

/** Lines YCSB 0.17.0 prints around a run that carry no measurement (site.ycsb.Client, DBWrapper). */
const NOISE_PREFIXES = [
  "Command line:",
  "YCSB Client ",
  "Loading workload...",
  "Starting test.",
  "DBWrapper: ",
  "Maximum execution time specified as",
  // The JVM's own notice on stderr when its options come from the environment (JDK 17 java(1): JAVA_TOOL_OPTIONS,
  // JDK_JAVA_OPTIONS), printed before YCSB starts.
  "Picked up JAVA_TOOL_OPTIONS:",
  "NOTE: Picked up JDK_JAVA_OPTIONS:",
];
const RAW_OUTPUT = "Raw data measurement: will output to ";
const RAW_FILE = "result file: ";

/**
 * Parses what one YCSB 0.17.0 client printed: the summary on stdout (text or JSON array exporter, any
 * measurementtype) and the `-s` status lines on stderr (they are also found in stdout when the streams
 * were merged). Pure and line by line over the bytes: no regular expression, no array of lines, and no
 * string made for a status line but its timestamp. Give it the bytes as read (a Buffer) where output is
 * large; text is accepted too and encoded first.
 *
 * Throws YcsbOutputError for empty input, a missing [OVERALL] section or output cut short. Anything
 * else that does not parse is a warning or an unknown line in the result, never a silent zero.
 */
export function parseYcsbOutput(stdout: string | Uint8Array, stderr: string | Uint8Array = ""): ClientOutput {
  const out = asBytes(stdout);
  if (isBlank(out)) throw new YcsbOutputError("is empty: no YCSB summary to parse", "stdout");
  const parser = new OutputParser();
  const stdoutLines = parser.scan(out, "stdout");
  if (stderr.length > 0) parser.scan(asBytes(stderr), "stderr");
  return parser.finish(stdoutLines);
}

class OutputParser {
  readonly warnings: string[] = [];
  readonly unknownLines: string[] = [];
  /** Status lines per stream: with measurementtype=timeseries YCSB prints them on stdout and stderr alike. */
  readonly statusSeries: Record<Stream, StatusSeriesBuilder | undefined> = { stdout: undefined, stderr: undefined };
  readonly summary = new SummaryBuilder(this.warnings);
  readonly raw = new RawPoints();
  exporter: "text" | "json-array" | undefined;
  rawOutputFile: string | undefined;
  private stream: Stream = "stdout";
  private lineNo = 0;
  private readonly warn = (message: string) => this.warnings.push(`${this.stream} line ${this.lineNo}: ${message}`);

  /** Feeds every line of one stream; returns the number of lines. */
  scan(b: Buffer, stream: Stream): number {
    this.stream = stream;
    this.lineNo = 0;
    let rawHeaderSeen = false;
    // Every line of a stream may be a status line (stderr is little else): columns sized once, not grown.
    const series = (this.statusSeries[stream] = new StatusSeriesBuilder(countNewlines(b, 0) + 1));
    const statusLines = new StatusLineReader(series, this.warn);
    const length = b.length;
    let pos = 0;
    while (pos < length) {
      let nl = b.indexOf(10, pos);
      const lastWithoutNewline = nl < 0;
      if (lastWithoutNewline) nl = length;
      this.lineNo++;
      let end = nl;
      if (end > pos && b[end - 1] === 13) end--;
      const first = b[pos]!;
      if (first === 91 /* [ */ && stream === "stdout" && isJsonArrayStart(b, pos, end)) {
        this.parseJsonArray(b, pos);
        return this.lineNo + countNewlines(b, pos);
      }
      if (lastWithoutNewline) {
        throw new YcsbOutputError(
          `the last line has no newline, the output looks cut short: "${preview(textOf(b, pos, end))}"`,
          stream,
          this.lineNo,
        );
      }
      // Status lines start with a digit (the date) or, before YCSB 0.2, with a space; they are read as bytes.
      const maybeStatus = first === 32 || (first >= 48 && first <= 57);
      if (end > pos && !(maybeStatus && statusLines.read(b, pos, end))) {
        const line = textOf(b, pos, end);
        if (first === 91) this.summaryLine(line);
        else if (rawHeaderSeen && this.raw.add(line)) {
          // a raw measurement point
        } else if (RawPoints.isHeader(line)) rawHeaderSeen = true;
        else this.otherLine(line);
      }
      pos = nl + 1;
    }
    return this.lineNo;
  }

  /** `[GROUP], Name, value` */
  private summaryLine(line: string): void {
    const close = line.indexOf("], ", 1);
    const comma = line.lastIndexOf(", ");
    if (close < 0 || comma < close + 3) {
      this.unknownLines.push(line);
      if (close > 0) this.warn(`summary line without a value: "${preview(line)}"`);
      return;
    }
    this.exporter ??= "text";
    const at: Origin = { stream: this.stream, line: this.lineNo };
    this.summary.add(line.slice(1, close), line.slice(close + 3, comma), line.slice(comma + 2).trim(), at);
  }

  private otherLine(line: string): void {
    if (line.startsWith(RAW_OUTPUT)) {
      const file = line.indexOf(RAW_FILE, RAW_OUTPUT.length);
      if (file >= 0) this.rawOutputFile = line.slice(file + RAW_FILE.length).trim();
      return;
    }
    for (const prefix of NOISE_PREFIXES) if (line.startsWith(prefix)) return;
    this.unknownLines.push(line);
  }

  /** exporter=site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter: `[ { "metric", "measurement", "value" }, ... ]` */
  private parseJsonArray(b: Buffer, from: number): void {
    const startLine = this.lineNo;
    let entries: unknown;
    try {
      entries = JSON.parse(textOf(b, from, b.length));
    } catch (err) {
      const lines = startLine + countNewlines(b, from);
      throw new YcsbOutputError(
        `the JSON array that starts on line ${startLine} does not parse, the output looks cut short or mixed: ${(err as Error).message}`,
        this.stream,
        lines,
      );
    }
    if (!Array.isArray(entries))
      throw new YcsbOutputError("the JSON exporter output is not an array", this.stream, startLine);
    this.exporter = "json-array";
    const at: Origin = { stream: this.stream, line: startLine };
    entries.forEach((entry: unknown, i) => {
      const e = entry as { metric?: unknown; measurement?: unknown; value?: unknown };
      if (
        typeof e !== "object" ||
        e === null ||
        typeof e.metric !== "string" ||
        typeof e.measurement !== "string" ||
        e.value === undefined
      ) {
        this.warnings.push(
          `${this.stream} line ${startLine}: JSON entry ${i} is not {metric, measurement, value}: ${preview(JSON.stringify(entry))}`,
        );
        return;
      }
      this.summary.add(e.metric, e.measurement, typeof e.value === "string" ? e.value : JSON.stringify(e.value), at);
    });
  }

  finish(stdoutLines: number): ClientOutput {
    const summary = this.summary.finish({ stream: "stdout", lines: stdoutLines });
    const result: ClientOutput = {
      ...summary,
      statusSeries: statusSeriesOf(this.statusSeries),
      unknownLines: this.unknownLines,
      warnings: this.warnings,
    };
    if (this.exporter) result.exporter = this.exporter;
    if (this.raw.size > 0) {
      result.rawPoints = this.raw.result();
      result.measurementType ??= "raw";
    }
    if (this.rawOutputFile !== undefined) result.rawOutputFile = this.rawOutputFile;
    return result;
  }
}

/** "[ {" (Jackson's pretty printer, as YCSB configures it), "[{" or a lone "[". */
function isJsonArrayStart(b: Buffer, pos: number, end: number): boolean {
  if (end === pos + 1) return true;
  const second = b[pos + 1];
  return second === 123 /* { */ || (second === 32 && b[pos + 2] === 123);
}

function countNewlines(b: Buffer, from: number): number {
  let n = 0;
  for (let i = b.indexOf(10, from); i >= 0; i = b.indexOf(10, i + 1)) n++;
  return n;
}

function preview(line: string): string {
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** stderr is where StatusThread writes; stdout holds status lines only as a copy (timeseries) or when streams were merged. */
function statusSeriesOf(byStream: Record<Stream, StatusSeriesBuilder | undefined>): StatusSeries {
  const { stderr, stdout } = byStream;
  if (stderr && stderr.length > 0) return stderr.finish();
  return stdout && stdout.length > 0 ? stdout.finish() : emptyStatusSeries();
}
