import type { Dirent } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";

/**
 * Where results go: an S3 bucket/prefix or a folder. Keys are relative ("runs/<runId>/..."), always with "/".
 * Both implementations behave the same, so the runner and its tests do not care which one they have.
 */
export interface ResultsStore {
  /** The store's address as the user gave it (s3://bucket/prefix or file:///dir). */
  readonly uri: string;
  put(key: string, body: string | Uint8Array, contentType?: string): Promise<void>;
  /** The object's bytes, or undefined when there is no such key. */
  get(key: string): Promise<Buffer | undefined>;
  /** Every key under a prefix, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Copies an object into a file without holding it in memory (engine artifacts are hundreds of MB); false when absent. */
  download(key: string, file: string): Promise<boolean>;
  /** Stores a file as an object without holding it in memory. */
  upload(key: string, file: string, contentType?: string): Promise<void>;
}

export class StoreError extends Error {}

/**
 * The store refused for a reason that waiting will not fix (access denied, no such bucket, bad credentials): the
 * runner fails at once naming the key and the error, instead of retrying until a barrier times out.
 */
export class StoreAccessError extends StoreError {
  readonly permanent = true as const;
}

function checkKey(key: string): void {
  if (!key || key.startsWith("/") || key.split("/").some((part) => part === ".." || part === "")) {
    throw new StoreError(`results key "${key}" must be relative, without empty or ".." parts`);
  }
}

/** A folder as the results store (file://dir): the local main job and tests without S3. */
export class FolderStore implements ResultsStore {
  readonly uri: string;
  constructor(readonly root: string) {
    this.uri = `file://${root}`;
  }

  async put(key: string, body: string | Uint8Array): Promise<void> {
    checkKey(key);
    const path = join(this.root, key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename, so a reader (a peer polling a barrier) never sees half an object.
    const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await writeFile(tmp, body);
    await rename(tmp, path);
  }

  async get(key: string): Promise<Buffer | undefined> {
    checkKey(key);
    try {
      return await readFile(join(this.root, key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  }

  async download(key: string, file: string): Promise<boolean> {
    checkKey(key);
    try {
      await copyFile(join(this.root, key), file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  }

  async upload(key: string, file: string): Promise<void> {
    checkKey(key);
    const path = join(this.root, key);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await copyFile(file, tmp);
    await rename(tmp, path);
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
        throw err;
      }
      for (const e of entries) {
        const path = join(dir, e.name);
        if (e.isDirectory()) await walk(path);
        else if (!e.name.includes(".tmp-")) out.push(relative(this.root, path).split(sep).join("/"));
      }
    };
    await walk(this.root);
    return out.filter((k) => k.startsWith(prefix)).sort();
  }
}

export interface S3Options {
  /** Endpoint override (moto, MinIO); path-style addressing is then used. */
  endpoint?: string;
  region?: string;
  /** Explicit credentials; otherwise the SDK's default chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}
