/**
 * Watches the instance metadata service for a Spot interruption notice (EC2 User Guide, "Spot Instance interruption
 * notices": `spot/instance-action` answers 404 until EC2 schedules the stop or termination, two minutes ahead, then
 * {"action": "terminate", "time": "..."}), through IMDSv2 tokens (the instances require them). Where no metadata
 * service answers (a development machine, AWS_EC2_METADATA_DISABLED) it stops quietly after saying so.
 */
export interface SpotNotice {
  action: string;
  time: string;
}

export interface SpotWatchOptions {
  env?: NodeJS.ProcessEnv;
  pollMs?: number;
  log?: (line: string) => void;
}

/** The metadata service's base URL, as the AWS SDKs find it; undefined when the environment disables it. */
export function metadataEndpoint(env: NodeJS.ProcessEnv): string | undefined {
  if (env.AWS_EC2_METADATA_DISABLED === "true") return undefined;
  // A rehearsal reaches loopback only: it names its own metadata service or has none.
  if (env.YCSB_LAB_REHEARSAL === "1" && !env.AWS_EC2_METADATA_SERVICE_ENDPOINT) return undefined;
  return (env.AWS_EC2_METADATA_SERVICE_ENDPOINT ?? "http://169.254.169.254").replace(/\/+$/, "");
}

async function token(base: string): Promise<string> {
  const r = await fetch(`${base}/latest/api/token`, {
    method: "PUT",
    headers: { "X-aws-ec2-metadata-token-ttl-seconds": "21600" },
    signal: AbortSignal.timeout(2000),
  });
  if (!r.ok) throw new Error(`IMDS token: HTTP ${r.status}`);
  return r.text();
}

/** Polls until a notice comes (then calls onNotice once) or stop() is called. */
export function watchSpotInterruption(
  onNotice: (n: SpotNotice) => void | Promise<void>,
  o: SpotWatchOptions = {},
): { stop: () => void } {
  const base = metadataEndpoint(o.env ?? process.env);
  let stopped = !base;
  let timer: NodeJS.Timeout | undefined;
  let held: string | undefined;
  const poll = async () => {
    if (stopped || !base) return;
    try {
      held ??= await token(base);
      const r = await fetch(`${base}/latest/meta-data/spot/instance-action`, {
        headers: { "X-aws-ec2-metadata-token": held },
        signal: AbortSignal.timeout(2000),
      });
      if (r.status === 401) held = undefined;
      if (r.ok) {
        const notice = (await r.json()) as SpotNotice;
        stopped = true;
        await onNotice(notice);
        return;
      }
      await r.body?.cancel();
    } catch (err) {
      if (!held) {
        o.log?.(`no instance metadata service at ${base} (${(err as Error).message}): no Spot interruption watch`);
        stopped = true;
        return;
      }
    }
    timer = setTimeout(() => void poll(), o.pollMs ?? 5000);
    timer.unref();
  };
  void poll();
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
