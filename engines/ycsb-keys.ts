/**
 * YCSB record keys as YCSB 0.17.0 core builds them (CoreWorkload.buildKeyName with the default
 * insertorder=hashed, zeropadding=1): "user" + Long.toString(fnvhash64(keynum)), no leading zeros.
 * HBase region splits and MongoDB chunk splits are computed from this key space (seed 000: "the same
 * numeric-based distribution calculated for HBase"), so the split points are a pure function of the count.
 */

const FNV_OFFSET_BASIS_64 = 0xcbf29ce484222325n;
const FNV_PRIME_64 = 1099511628211n;
const MASK_64 = (1n << 64n) - 1n;
/** fnvhash64 returns Math.abs of a signed long: keys are spread over [0, 2^63). */
const KEY_SPACE = 1n << 63n;

export const YCSB_KEY_PREFIX = "user";

/** YCSB's Utils.fnvhash64: FNV-1a over the 8 little-endian bytes of the key number, then Math.abs. */
export function ycsbKeyHash(keynum: bigint): bigint {
  let hash = FNV_OFFSET_BASIS_64;
  let value = BigInt.asUintN(64, keynum);
  for (let i = 0; i < 8; i++) {
    hash ^= value & 0xffn;
    value >>= 8n;
    hash = (hash * FNV_PRIME_64) & MASK_64;
  }
  const signed = BigInt.asIntN(64, hash);
  return signed < 0n ? BigInt.asIntN(64, -signed) : signed;
}

/** The key YCSB writes for record number `keynum` (hashed insert order, the default). */
export function ycsbKey(keynum: number | bigint): string {
  return YCSB_KEY_PREFIX + ycsbKeyHash(BigInt(keynum)).toString();
}

/** How many hashed values in [0, 2^63) give a decimal string that sorts before `prefix` (byte order). */
function countSortingBefore(prefix: string): bigint {
  const m = prefix.length;
  let total = 0n;
  for (let length = 1; length <= 19; length++) {
    const lo = length === 1 ? 0n : 10n ** BigInt(length - 1);
    const hi = 10n ** BigInt(length) < KEY_SPACE ? 10n ** BigInt(length) : KEY_SPACE;
    if (lo >= hi) continue;
    const k = Math.min(length, m);
    const head = BigInt(prefix.slice(0, k));
    // Same-length strings compare as numbers; a shorter string that is a prefix of `prefix` sorts before it.
    const below = length >= m ? head * 10n ** BigInt(length - m) : head + 1n;
    const clipped = below < lo ? lo : below > hi ? hi : below;
    total += clipped - lo;
  }
  return total;
}

/**
 * Split points that cut YCSB's hashed key space into `parts` ranges holding equal shares of the keys,
 * as "user" + `digits` decimal digits (byte order = numeric order at a fixed width). parts - 1 points.
 */
export function hashedKeySplitPoints(parts: number, digits = 6): string[] {
  if (!Number.isInteger(parts) || parts < 1) throw new Error(`parts: must be a positive integer, got ${parts}`);
  if (!Number.isInteger(digits) || digits < 1 || digits > 18) throw new Error(`digits: must be 1..18, got ${digits}`);
  const points: string[] = [];
  const first = 10n ** BigInt(digits - 1);
  const last = 10n ** BigInt(digits) - 1n;
  for (let i = 1; i < parts; i++) {
    const target = (KEY_SPACE * BigInt(i)) / BigInt(parts);
    // Smallest fixed-width prefix with at least `target` keys before it.
    let low = first;
    let high = last;
    while (low < high) {
      const mid = (low + high) / 2n;
      if (countSortingBefore(mid.toString()) >= target) high = mid;
      else low = mid + 1n;
    }
    points.push(YCSB_KEY_PREFIX + low.toString());
  }
  return points;
}
