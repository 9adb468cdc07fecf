/** Bad HDR log input: names the log (file), the 1-based line and the problem. */
export class HdrLogError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${source}:${line}: ${problem}`);
    this.name = "HdrLogError";
  }
}
