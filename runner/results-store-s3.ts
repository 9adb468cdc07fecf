import { createReadStream, createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from "@aws-sdk/client-s3";
import { withPrefix } from "../model/results-layout.js";
import { type ResultsStore, type S3Options, StoreAccessError } from "./results-store.js";

/**
 * S3 error codes no retry can fix: the caller's identity or permissions, or the bucket itself. Throttling, 5xx and
 * network errors are left to the runner's backoff. (S3 API reference, "Error responses".)
 */
const PERMANENT = new Set([
  "AccessDenied",
  "AllAccessDisabled",
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "NoSuchBucket",
  "InvalidBucketName",
  "AccountProblem",
  "InvalidObjectState",
  "KMS.AccessDeniedException",
]);

/** Re-throw an SDK error as StoreAccessError when it is permanent, naming the operation and the key. */
export function classifyS3Error(err: unknown, what: string): never {
  const e = err as { name?: string; Code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const code = e.Code ?? e.name ?? "Error";
  const status = e.$metadata?.httpStatusCode;
  // A 403 without a code (HEAD-style answers carry no body) is still a refusal.
  if (PERMANENT.has(code) || status === 403)
    throw new StoreAccessError(`${what}: ${code}${status ? ` (HTTP ${status})` : ""}: ${e.message ?? ""}`.trim());
  throw err;
}

const isNoSuchKey = (err: unknown) => err instanceof NoSuchKey || (err as { name?: string }).name === "NoSuchKey";
const isForbidden = (err: unknown) => {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e.$metadata?.httpStatusCode === 403 || (e.Code ?? e.name) === "AccessDenied";
};

/** S3 (or an S3 emulator through `endpoint`) as the results store. */
export class S3Store implements ResultsStore {
  readonly uri: string;
  private readonly client: S3Client;

  constructor(
    readonly bucket: string,
    readonly prefix: string,
    opts: S3Options = {},
  ) {
    this.uri = `s3://${bucket}${prefix ? `/${prefix}` : ""}`;
    const endpoint = opts.endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
    this.client = new S3Client({
      region: opts.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1",
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      // The runner retries with its own backoff (runner/retry.ts); one SDK attempt keeps failures prompt.
      maxAttempts: 1,
    });
  }

  private key(key: string): string {
    return withPrefix(this.prefix, key);
  }

  private where(key: string): string {
    return `s3://${this.bucket}/${this.key(key)}`;
  }

  async put(key: string, body: string | Uint8Array, contentType?: string): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: body, ContentType: contentType }),
      );
    } catch (err) {
      classifyS3Error(err, `put ${this.where(key)}`);
    }
  }

  /**
   * S3 answers a GET of a missing key with 403 AccessDenied, not 404, to a caller without s3:ListBucket on the bucket
   * (S3 API reference, GetObject, "Permissions"), and instances hold ListBucket only under their run's prefix
   * (infra/policies.ts). A listing under the key itself, which that prefix allows, tells a missing key from a
   * refusal: true when listed, false when not, undefined when the listing is refused too.
   */
  private async listed(key: string): Promise<boolean | undefined> {
    try {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.key(key), MaxKeys: 1 }),
      );
      return (out.Contents ?? []).some((o) => o.Key === this.key(key));
    } catch {
      return undefined;
    }
  }

  /**
   * One read of `key`, `absent` when S3 says it does not exist. A 403 for a key the listing then shows may be a key
   * written between the two calls (a leader writing its readiness marker while a client polls for it: S3 is
   * strongly consistent, so the listing sees the write the GET could not), so the key is read once more; only a
   * second refusal of a key that exists is a refusal.
   */
  private async readOr<T>(key: string, read: (k: string) => Promise<T>, absent: T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read(this.key(key));
      } catch (err) {
        if (isNoSuchKey(err)) return absent;
        if (isForbidden(err)) {
          const found = await this.listed(key);
          if (found === false) return absent;
          if (found === true && attempt === 1) continue;
        }
        classifyS3Error(err, `get ${this.where(key)}`);
      }
    }
  }

  get(key: string): Promise<Buffer | undefined> {
    return this.readOr(
      key,
      async (k) => {
        const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: k }));
        return Buffer.from(await out.Body!.transformToByteArray());
      },
      undefined,
    );
  }

  download(key: string, file: string): Promise<boolean> {
    return this.readOr(
      key,
      async (k) => {
        const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: k }));
        await pipeline(out.Body as Readable, createWriteStream(file));
        return true;
      },
      false,
    );
  }

  async upload(key: string, file: string, contentType?: string): Promise<void> {
    try {
      const size = (await stat(file)).size;
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
    } catch (err) {
      classifyS3Error(err, `put ${this.where(key)}`);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const strip = this.prefix ? this.prefix.length + 1 : 0;
    try {
      // The SDK's paginator follows the continuation tokens (1,000 keys a page).
      for await (const page of paginateListObjectsV2(
        { client: this.client },
        { Bucket: this.bucket, Prefix: this.key(prefix) },
      )) {
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(strip));
      }
    } catch (err) {
      classifyS3Error(err, `list ${this.where(prefix)}`);
    }
    return keys.sort();
  }

  destroy(): void {
    this.client.destroy();
  }
}
