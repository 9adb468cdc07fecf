/** Quoting for the bash infra renders (user-data): every value put into a script goes through `q`. */

/** Single-quote a value for bash. */
export function q(value: string | number): string {
  return `'${String(value).replace(/'/g, `'\\''`)}'`;
}
