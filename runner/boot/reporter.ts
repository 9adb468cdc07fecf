import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { InstanceBilling } from "../../model/instance-billing.js";
import type { InstanceRole, InstanceStage, InstanceStatus } from "../../model/instance-status.js";
import { HEARTBEAT_SECONDS, instanceName } from "../../model/instance-status.js";
import type { RunObjects } from "./run-objects.js";

/** Last lines of a text file ("" when it cannot be read). */
export function tailOf(file: string, lines = 80): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

/**
 * An instance's voice: each stage goes to its log (stdout and a file, whose tail is uploaded on failure) and to
 * `runs/<id>/status/<instance>.json`. A status that cannot be written is logged, never fatal: the work goes on.
 */
export class Reporter {
  readonly instance: string;
  private last?: InstanceStatus;
  /** The boot's start, on every status: what the run's realized cost bills from (model/run-cost.ts). */
  private readonly bootedAt = new Date().toISOString();
  /** What the instance is billed for beside its hours, once cluster.json said it (model/instance-billing.ts). */
  private billing?: InstanceBilling;

  constructor(
    private readonly objects: RunObjects,
    readonly role: InstanceRole,
    readonly index: number,
    readonly logFile: string,
    private readonly extra: Pick<InstanceStatus, "kit" | "rehearsal"> = {},
  ) {
    this.instance = instanceName(role, index);
    mkdirSync(dirname(logFile), { recursive: true });
  }

  log(line: string): void {
    const text = `${new Date().toISOString()} [${this.instance}] ${line}\n`;
    process.stdout.write(text);
    try {
      appendFileSync(this.logFile, text);
    } catch {
      // The log file is a convenience; stdout (the journal, the rehearsal's view) has the line.
    }
  }

  /**
   * The instance's volumes and address from cluster.json (its role's `billing`): every later status carries them, so
   * the span stored from its last marker is priced with them. A description without them (an older stack) sets none.
   */
  bills(billing: InstanceBilling | undefined): void {
    if (billing) this.billing = billing;
  }

  async stage(stage: InstanceStage, detail?: string, phase?: InstanceStatus["phase"]): Promise<void> {
    const status: InstanceStatus = {
      instance: this.instance,
      role: this.role,
      index: this.index,
      stage,
      at: new Date().toISOString(),
      bootedAt: this.bootedAt,
      ...(this.billing ? { billing: this.billing } : {}),
      ...(detail ? { detail: detail.slice(0, 4000) } : {}),
      ...(phase ? { phase } : {}),
      ...this.extra,
    };
    this.last = status;
    this.log(`${stage}${phase ? ` ${phase.position}/${phase.of} ${phase.name}` : ""}${detail ? `: ${detail}` : ""}`);
    await this.objects.putStatus(status).catch((err: Error) => this.log(`status not written: ${err.message}`));
  }

  /** Failed, with the reason and the tail of this instance's log (and of `also`, e.g. the engine's own log). */
  async failed(reason: string, also?: { title: string; file: string }): Promise<void> {
    this.log(`failed: ${reason}`);
    const tail = [
      tailOf(this.logFile),
      ...(also ? [`--- ${also.title} (${also.file}) ---`, tailOf(also.file)] : []),
    ].join("\n");
    const status: InstanceStatus = {
      instance: this.instance,
      role: this.role,
      index: this.index,
      stage: "failed",
      at: new Date().toISOString(),
      bootedAt: this.bootedAt,
      ...(this.billing ? { billing: this.billing } : {}),
      detail: reason.slice(0, 4000),
      logTail: true,
      ...this.extra,
    };
    this.last = status;
    await Promise.all([
      this.objects
        .putLogTail(this.instance, `${tail}\n`)
        .catch((err: Error) => this.log(`log tail not written: ${err.message}`)),
      this.objects.putStatus(status).catch((err: Error) => this.log(`status not written: ${err.message}`)),
    ]);
  }

  /**
   * Rewrites the last status every HEARTBEAT_SECONDS with the time (model/instance-status.ts heartbeatAt), until
   * `stop` is called: the run tells a working instance from a machine that died without a word.
   */
  heartbeat(): { stop: () => void } {
    const timer = setInterval(() => {
      const last = this.last;
      if (!last || last.stage === "failed" || last.stage === "done") return;
      void this.objects.putStatus({ ...last, heartbeatAt: new Date().toISOString() }).catch(() => undefined);
    }, HEARTBEAT_SECONDS * 1000);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  get current(): InstanceStatus | undefined {
    return this.last;
  }
}
