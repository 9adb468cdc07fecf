import { describe, expect, it } from "vitest";
import { StoreAccessError } from "../../runner/results-store.js";
import { S3Store } from "../../runner/results-store-s3.js";

/**
 * S3's answers to a GET as an instance meets them (S3 API reference, GetObject, "Permissions"): 403 AccessDenied for
 * a key that does not exist when the caller may not list the bucket, and a listing under the key to tell "missing"
 * from "refused". Found in a rehearsal on a loaded machine: a client polled the readiness marker (403: not written
 * yet), the leader wrote it, and the client's listing then showed it, so the client took the first 403 as a
 * refusal and failed the run. Each case scripts S3's answers in order.
 */
type Answer = { ok: unknown } | { fail: Error };
const forbidden = () =>
  Object.assign(new Error("Access Denied"), { name: "AccessDenied", $metadata: { httpStatusCode: 403 } });
const body = (text: string) => ({ ok: { Body: { transformToByteArray: async () => new TextEncoder().encode(text) } } });
const listing = (...keys: string[]) => ({ ok: { Contents: keys.map((Key) => ({ Key })) } });

function storeAnswering(answers: Answer[]): { store: S3Store; calls: string[] } {
  const store = new S3Store("results", "", { region: "us-east-1" });
  const calls: string[] = [];
  const client = {
    send: async (command: object) => {
      calls.push(command.constructor.name);
      const next = answers.shift();
      if (!next) throw new Error(`no scripted answer for ${command.constructor.name}`);
      if ("fail" in next) throw next.fail;
      return next.ok;
    },
  };
  Object.assign(store as unknown as { client: unknown }, { client });
  return { store, calls };
}

const KEY = "runs/r1/cluster/ready.json";

describe("a GET refused with 403, told apart by a listing (runner/results-store-s3.ts)", () => {
  it("reads again when the key appeared between the GET and the listing, and returns it", async () => {
    const { store, calls } = storeAnswering([{ fail: forbidden() }, listing(KEY), body('{"formedAt":"x"}')]);
    expect((await store.get(KEY))?.toString()).toBe('{"formedAt":"x"}');
    expect(calls).toEqual(["GetObjectCommand", "ListObjectsV2Command", "GetObjectCommand"]);
  });

  it("is missing when the listing does not show the key", async () => {
    const { store } = storeAnswering([{ fail: forbidden() }, listing()]);
    expect(await store.get(KEY)).toBeUndefined();
  });

  it("is a refusal when a key the listing shows is refused a second time", async () => {
    const { store, calls } = storeAnswering([{ fail: forbidden() }, listing(KEY), { fail: forbidden() }, listing(KEY)]);
    await expect(store.get(KEY)).rejects.toThrow(StoreAccessError);
    expect(calls).toHaveLength(4);
  });

  it("is a refusal when the listing is refused too", async () => {
    const { store } = storeAnswering([{ fail: forbidden() }, { fail: forbidden() }]);
    await expect(store.get(KEY)).rejects.toThrow(
      /get s3:\/\/results\/runs\/r1\/cluster\/ready\.json: AccessDenied \(HTTP 403\)/,
    );
  });
});
