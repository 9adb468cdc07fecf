/**
 * A deterministic tar (POSIX ustar) writer: the same files give the same bytes on any machine (fixed owner, time
 * and order), so a kit's SHA-256 names its content and an unchanged kit is never uploaded twice. Pure.
 */
export interface TarEntry {
  /** Relative path with "/" separators. */
  path: string;
  data: Uint8Array;
  executable?: boolean;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

/** ustar keeps names in a 100-byte name field plus a 155-byte prefix split at a "/". */
function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" };
  for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`tar: path too long for ustar: ${path}`);
}

function header(path: string, size: number, mode: number, type: "0" | "5"): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  const { name, prefix } = splitName(path);
  h.write(name, 0, 100, "utf8");
  h.write(octal(mode, 8), 100, 8, "ascii");
  h.write(octal(0, 8), 108, 8, "ascii");
  h.write(octal(0, 8), 116, 8, "ascii");
  h.write(octal(size, 12), 124, 12, "ascii");
  h.write(octal(0, 12), 136, 12, "ascii");
  h.write("        ", 148, 8, "ascii");
  h.write(type, 156, 1, "ascii");
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  h.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return h;
}

/** The archive of `entries` (and the folders they imply), sorted by path. */
export function tarArchive(entries: TarEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const dirs = new Set<string>();
  for (const e of sorted) {
    const parts = e.path.split("/");
    for (let i = 1; i < parts.length; i++) dirs.add(`${parts.slice(0, i).join("/")}/`);
  }
  const chunks: Buffer[] = [];
  for (const dir of [...dirs].sort()) chunks.push(header(dir, 0, 0o755, "5"));
  for (const e of sorted) {
    if (!e.path || e.path.startsWith("/") || e.path.split("/").includes(".."))
      throw new Error(`tar: not a relative path: ${e.path}`);
    chunks.push(header(e.path, e.data.length, e.executable ? 0o755 : 0o644, "0"), Buffer.from(e.data));
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) chunks.push(Buffer.alloc(pad, 0));
  }
  chunks.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(chunks);
}
