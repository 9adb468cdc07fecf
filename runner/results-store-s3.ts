import { GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { withPrefix } from "../model/results-layout.js";
import type { ResultsStore, S3Options } from "./results-store.js";

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
      // The runner retries with its own backoff (runner/retry.ts); one SDK attempt keeps failures prompt.
      maxAttempts: 1,
    });
  }

  private key(key: string): string {
    return withPrefix(this.prefix, key);
  }

  async put(key: string, body: string | Uint8Array, contentType?: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: body, ContentType: contentType }));
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return Buffer.from(await out.Body!.transformToByteArray());
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === "NoSuchKey") return undefined;
      throw err;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    const strip = this.prefix ? this.prefix.length + 1 : 0;
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.key(prefix), ContinuationToken: token }),
      );
      for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key.slice(strip));
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  destroy(): void {
    this.client.destroy();
  }
}
