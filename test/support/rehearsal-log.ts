import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { onTestFailed } from "vitest";
import { REPO_ROOT } from "./boot-run.js";

/**
 * A rehearsal's own output, kept for when its test fails. A rehearsal runs for minutes on a CI machine nobody can log
 * into; a bare "Test timed out" there says nothing. So every line goes to a file under .local/rehearsal-logs, and a
 * failed test (a timeout included) prints the rehearsal's last lines and the last lines of each machine's console.
 * Call it inside the test: it registers the failure hook there.
 */
export function rehearsalLog(name: string, tailLines = 80): (line: string) => void {
  const dir = join(REPO_ROOT, ".local", "rehearsal-logs");
  mkdirSync(dir, { recursive: true });
  const file = join(
    dir,
    `${name.replace(/[^A-Za-z0-9-]+/g, "-")}-${new Date().toISOString().replace(/[:.]/g, "-")}.log`,
  );
  const lines: string[] = [];
  const consoles = new Map<string, string>();
  const log = (line: string) => {
    const stamped = `${new Date().toISOString().slice(11, 19)} ${line}`;
    lines.push(stamped);
    appendFileSync(file, `${stamped}\n`);
    // "client-1: booting as 10.42.2.11 -> 127.0.112.102, console /…/client-1/console.log" (rehearse/rehearse.ts)
    const booting = /^(\S+): booting as .*, console (\S+)$/.exec(line);
    if (booting) consoles.set(booting[1]!, booting[2]!);
  };
  onTestFailed(() => {
    const out = [
      `--- rehearsal ${name}: its last ${tailLines} lines (all of them in ${file})`,
      ...lines.slice(-tailLines),
    ];
    for (const [machine, path] of consoles) {
      if (!existsSync(path)) continue;
      const tail = readFileSync(path, "utf8").trimEnd().split("\n").slice(-25);
      out.push(`--- ${machine}: the last ${tail.length} lines of its console (${path})`, ...tail);
    }
    process.stderr.write(`${out.join("\n")}\n`);
  });
  return log;
}
