/**
 * The digests engine downloads must have, pinned in the repository: an instance checks the vendor's download against
 * these, and the vendor's published digest must agree (runner/boot/engine-install.ts), so neither a changed file nor
 * a changed digest beside it on the vendor's server gets installed. Each entry names where the value was read apart
 * from the vendor's own digest file. An artifact not listed is checked against the vendor's published digest only
 * (the data node's status says so); `npx tsx scripts/pin-engine-digests.ts` prints what the vendors publish for every
 * engine version, to compare with a second source and add here.
 */
export interface PinnedDigest {
  algorithm: "sha256" | "sha512";
  digest: string;
  /** Where the digest was read, besides the vendor's file beside the artifact. */
  source: string;
}

export const PINNED_DIGESTS: Readonly<Record<string, PinnedDigest>> = {
  "apache-cassandra-5.0.4-bin.tar.gz": {
    algorithm: "sha512",
    digest:
      "16de8bb78af94dabfd916825f492de7040a7311791bc1d630f14707d88f7132e51ae38dad7ebbaf13d2d154af0bdeefe318d680798b8e247ae4117cbc0e2f6df",
    source: "docker-library/cassandra versions.json, commit 0f32c04 (Update 5.0 to 5.0.4): the official image's pin",
  },
  "couchbase-server-community_7.6.2-linux_amd64.deb": {
    algorithm: "sha256",
    digest: "60c76f5ddc412b202a79ee927010cb0ede334cb7e6849429dd00bc0d7f1ffbcc",
    source: "couchbase/docker community/couchbase-server/7.6.2/Dockerfile (CB_SHA256, amd64): the vendor's image pin",
  },
};

/** The pinned digest of an artifact by its file name, if the repository pins one. */
export function pinnedDigest(name: string): PinnedDigest | undefined {
  return PINNED_DIGESTS[name];
}
