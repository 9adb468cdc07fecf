import { createHash } from "node:crypto";

/** A group's id: the model's key (model/aggregate/groups.ts) hashed, short enough for an index. */
export const groupIdOf = (key: string): string => createHash("sha256").update(key).digest("base64url").slice(0, 32);
