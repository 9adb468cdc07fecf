/** The YCSB output cannot be trusted as a whole: empty, no [OVERALL] section, or cut short. */
export class YcsbOutputError extends Error {
  constructor(
    message: string,
    /** "stdout" or "stderr", where known. */
    readonly stream?: "stdout" | "stderr",
    /** 1-based line number in that stream, where known. */
    readonly line?: number,
  ) {
    super(stream && line ? `${stream} line ${line}: ${message}` : stream ? `${stream}: ${message}` : message);
    this.name = "YcsbOutputError";
  }
}
