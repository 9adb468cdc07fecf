import { fileURLToPath } from "node:url";
import { FolderStore, type ResultsStore, type S3Options, StoreError } from "./results-store.js";

// Apart from results-store.ts so that the S3 store (which implements its interface) and the folder store never
// import each other; the AWS SDK is loaded only when a run writes to S3.
/** Open the store a URI names: s3://bucket[/prefix] or file://dir (relative dirs allowed: file://results). */
export async function openResultsStore(uri: string, s3: S3Options = {}): Promise<ResultsStore> {
  if (uri.startsWith("file://")) {
    const rest = uri.slice("file://".length);
    const path = rest.startsWith("/") ? fileURLToPath(`file://${rest}`) : rest;
    if (!path) throw new StoreError(`results: "${uri}" names no folder`);
    return new FolderStore(path);
  }
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(uri);
  if (m) {
    const { S3Store } = await import("./results-store-s3.js");
    return new S3Store(m[1]!, (m[2] ?? "").replace(/\/+$/, ""), s3);
  }
  throw new StoreError(`results: "${uri}" is neither s3://bucket/prefix nor file://dir`);
}
