import { crc32 } from "node:zlib";

/**
 * A gzip member (RFC 1952) of stored deflate blocks (RFC 1951 section 3.2.4): the same bytes from any machine and any
 * Node.js. A kit's SHA-256 goes into every result's provenance, and zlib's own output is not stable: its header
 * names the operating system (3 on Linux, 19 on macOS) and Node's bundled zlib changes its deflate output between
 * releases (Node 26 moved to zlib-ng). A kit is mostly jars, already compressed: stored blocks cost about a fifth
 * more bytes (Cassandra's kit: 20.4 MB instead of 16.6 MB). Pure.
 */
const MAX_STORED = 0xffff;

/** Header: magic, CM=8 (deflate), no flags, MTIME 0, XFL 0, OS 255 ("unknown": no platform in the bytes). */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

export function storedGzip(data: Uint8Array): Buffer {
  const input = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const blocks = Math.max(1, Math.ceil(input.length / MAX_STORED));
  const out = Buffer.alloc(HEADER.length + blocks * 5 + input.length + 8);
  HEADER.copy(out, 0);
  let at = HEADER.length;
  for (let i = 0; i < blocks; i++) {
    const chunk = input.subarray(i * MAX_STORED, (i + 1) * MAX_STORED);
    // BFINAL on the last block, BTYPE 00 (stored); then LEN and its one's complement, little-endian.
    out[at] = i === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(chunk.length, at + 1);
    out.writeUInt16LE(~chunk.length & 0xffff, at + 3);
    chunk.copy(out, at + 5);
    at += 5 + chunk.length;
  }
  out.writeUInt32LE(crc32(input) >>> 0, at);
  // ISIZE: the input's length modulo 2^32.
  out.writeUInt32LE(input.length % 2 ** 32, at + 4);
  return out;
}
