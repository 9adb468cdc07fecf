import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { ConfigError } from "./config.js";

/**
 * The write token kept on disk (YCSB_LAB_TOKEN_FILE, default .local/write-token): generated once, readable by its
 * owner only, the same at every start, so a runner given it keeps writing after a restart of the service.
 */
export async function loadOrCreateToken(path: string): Promise<{ token: string; created: boolean }> {
  const existing = await readToken(path);
  if (existing) return { token: existing, created: false };
  await mkdir(dirname(path), { recursive: true });
  const token = randomBytes(24).toString("base64url");
  try {
    // "wx": two services starting at once both read nothing; one creates the file, the other reads the winner's.
    await writeFile(path, `${token}\n`, { flag: "wx", mode: 0o600 });
    return { token, created: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    const winner = await readToken(path);
    if (!winner) throw new ConfigError(`YCSB_LAB_TOKEN_FILE ${path}: empty`);
    return { token: winner, created: false };
  }
}

async function readToken(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  const token = text.trim();
  if (token.length < 16 || /\s/.test(token))
    throw new ConfigError(`YCSB_LAB_TOKEN_FILE ${path}: holds no token of at least 16 characters without spaces`);
  return token;
}
