import { describe, expect, it } from "vitest";
import { parseCommandArgs, UsageError } from "../../cli/command.js";
import { command as exportCommand } from "../../cli/commands/export.js";
import { command as ycsbCommand } from "../../cli/commands/ycsb.js";

/** parseArgs' complaints become usage errors (exit code 2, printed with the usage), before anything is opened. */
describe("parseCommandArgs", () => {
  it("returns what parseArgs parsed, typed by the options", () => {
    const { values, positionals } = parseCommandArgs({
      args: ["--out", "x.jsonl", "build"],
      strict: true,
      allowPositionals: true,
      options: { out: { type: "string" }, json: { type: "boolean" } },
    });
    expect(values).toEqual({ out: "x.jsonl" });
    expect(positionals).toEqual(["build"]);
  });

  it("throws an unknown option as a UsageError naming it, with the hint appended", () => {
    const parse = () => parseCommandArgs({ args: ["--colour"], strict: true, options: {} }, " (a hint)");
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow(/'--colour'.* \(a hint\)$/);
  });

  it("throws a string option given no value as a UsageError", () => {
    expect(() => parseCommandArgs({ args: ["--out"], strict: true, options: { out: { type: "string" } } })).toThrow(
      UsageError,
    );
  });

  it("makes a command's bad option a usage error before the command opens anything", async () => {
    await expect(exportCommand.run(["--bogus"])).rejects.toThrow(UsageError);
    await expect(ycsbCommand.run(["--bogus"])).rejects.toThrow(/YCSB's own arguments go after --\)$/);
  });
});
