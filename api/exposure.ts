import { isIP } from "node:net";

/** Whether a listen address is reachable from this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  return /^::ffff:127\./.test(h);
}

/** What an operator should know before serving: reads open to every address the service listens on. */
export function exposureWarnings(o: { host: string; protectReads: boolean }): string[] {
  if (isLoopbackHost(o.host) || o.protectReads) return [];
  return [
    `serving on ${o.host} with open reads: anyone who can reach this address sees every result; set YCSB_LAB_PROTECT_READS=1 to require the write token for reads too`,
  ];
}
