/**
 * Tokens for every node of a new, empty Cassandra cluster, chosen up front so all nodes can start at once: the
 * Murmur3 ring (-2^63 .. 2^63-1) cut into nodes x vnodes equal ranges, node i taking every nodes-th one, so each
 * node owns the same share however the ranges interleave. With `initial_token` set and `auto_bootstrap: false`
 * (nothing to stream into an empty ring), no node waits for another to bootstrap (cassandra.yaml reference:
 * initial_token, auto_bootstrap). Pure.
 */
const RING = 1n << 64n;
const MIN = -(1n << 63n);

export function initialTokens(nodes: number, vnodes: number, index: number): string[] {
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`cassandra tokens: nodes must be >= 1, got ${nodes}`);
  if (!Number.isInteger(vnodes) || vnodes < 1) throw new Error(`cassandra tokens: vnodes must be >= 1, got ${vnodes}`);
  if (!Number.isInteger(index) || index < 0 || index >= nodes)
    throw new Error(`cassandra tokens: index must be 0..${nodes - 1}, got ${index}`);
  const total = BigInt(nodes * vnodes);
  const tokens: string[] = [];
  for (let v = 0; v < vnodes; v++) {
    const k = BigInt(v * nodes + index);
    tokens.push((MIN + (k * RING) / total).toString());
  }
  return tokens;
}
