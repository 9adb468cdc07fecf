/** Small helpers for rendering bash: every value put into a script goes through `q`, every file through `writeFile`. */

/** Single-quote a value for bash. */
export function q(value: string | number): string {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}

/** A heredoc that writes `content` verbatim to `path` (quoted delimiter: no expansion inside). */
export function writeFile(path: string, content: string, mode?: string): string {
  let delimiter = "YCSB_LAB_EOF";
  while (content.includes(delimiter)) delimiter += "_";
  const body = content.endsWith("\n") ? content : `${content}\n`;
  const lines = [`mkdir -p "$(dirname ${q(path)})"`, `cat > ${q(path)} <<'${delimiter}'`, `${body}${delimiter}`];
  if (mode) lines.push(`chmod ${mode} ${q(path)}`);
  return lines.join("\n");
}

/** A bash section with a comment header, so a failing boot log says which step it was in. */
export function section(title: string, body: string): string {
  return `# --- ${title} ---\necho "ycsb-lab: ${title.replace(/"/g, "")}"\n${body.trim()}\n`;
}

/** Poll `condition` every `intervalSec` until it succeeds or `timeoutSec` passes (then fail the boot). */
export function waitFor(what: string, condition: string, timeoutSec = 1800, intervalSec = 5): string {
  return [
    `ycsb_lab_deadline=$(( $(date +%s) + ${timeoutSec} ))`,
    `until ${condition}; do`,
    `  if [ "$(date +%s)" -ge "$ycsb_lab_deadline" ]; then echo "ycsb-lab: timed out waiting for ${what.replace(/"/g, "")}" >&2; exit 1; fi`,
    `  sleep ${intervalSec}`,
    `done`,
  ].join("\n");
}
