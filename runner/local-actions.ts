import { writeFile } from "node:fs/promises";
import type { Engine } from "../model/index.js";
import { switchCassandraDurableWrites, waitForCassandraCompactions } from "./cassandra-compactions.js";
import { describeReset, type EngineActions } from "./engine-actions.js";
import { bindingClasspathDir, ycsbCoreDir } from "./java-artifacts.js";
import { queryCql } from "./local/cassandra-cql.js";
import { engineDir, type LocalEngineState, readState } from "./local/engine.js";
import { loadLocalEngine } from "./local/registry.js";
import { rebalanceWait } from "./mongodb-balancer.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runningState(engine: Engine): Promise<LocalEngineState> {
  const state = await readState(engine);
  if (!state) throw new Error(`engine: no local ${engine} runs (start it with "ycsb-lab local up --engine ${engine}")`);
  return state;
}

/**
 * Prepare and settle against an engine `ycsb-lab local up` started. Prepare empties the table, as every seed
 * started from an empty database (seed 000: "Each test started with an empty database").
 */
export function localEngineActions(engine: Engine, log: (l: string) => void = () => {}): EngineActions {
  return {
    async prepareSchema(plan) {
      const state = await runningState(engine);
      const local = await loadLocalEngine(engine);
      const switches = plan.phases.some((p) => p.serverPreset);
      await local.prepareSchema?.(state, {
        preset: plan.deployment.preset,
        fieldCount: plan.deployment.fieldCount,
        study: plan.deployment.study,
        ...(switches ? { loadPreset: plan.deployment.loadPreset } : {}),
      });
      if (engine === "cassandra") {
        await queryCql({
          ...(await cqlTools()),
          hosts: state.nodes.map((n) => n.address),
          statements: ["TRUNCATE ycsb.usertable"],
        });
        return `schema prepared for ${plan.deployment.fieldCount} fields (preset ${plan.deployment.preset}), ycsb.usertable emptied`;
      }
      return `schema prepared for ${plan.deployment.fieldCount} fields (preset ${plan.deployment.preset})`;
    },
    async reset(phase) {
      const r = phase.reset;
      if (!r) return "reset: nothing asked";
      const state = await runningState(engine);
      const local = await loadLocalEngine(engine);
      const done: string[] = [];
      if (r.wipeData && (r.restartServer || engine !== "cassandra")) {
        // Data files wiped, server restarted (seed 004's words): the local engine started again from empty folders.
        await local.down(state);
        await local.up({
          nodes: state.nodes.length,
          preset: state.preset,
          dataDir: state.dataDir ?? engineDir(engine),
          log,
          study: (state.details?.study as never) ?? undefined,
        });
        done.push(`${engine} stopped and started again on empty data folders`);
      } else if (r.wipeData) {
        await queryCql({
          ...(await cqlTools()),
          hosts: state.nodes.map((n) => n.address),
          statements: ["TRUNCATE ycsb.usertable"],
        });
        done.push("ycsb.usertable emptied");
      } else if (r.restartServer) {
        if (local.restart) {
          await local.restart(state, log);
          done.push(`${engine} restarted, data kept`);
        } else done.push(`restart not available for the local ${engine} stand-in: not restarted`);
      }
      if (r.dropCaches) {
        try {
          await writeFile("/proc/sys/vm/drop_caches", "3\n");
          done.push("page cache dropped");
        } catch (err) {
          done.push(
            `page cache not dropped (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}: needs root)`,
          );
        }
      }
      return `reset (${describeReset(phase)}): ${done.join("; ")}`;
    },
    async settle(phase) {
      const minSec = phase.settle?.minSec ?? 0;
      if (minSec > 0) await sleep(minSec * 1000);
      const done: string[] = [];
      if (!phase.settle?.waitForCompactions) done.push(`settled for ${minSec} s`);
      else if (engine !== "cassandra") done.push(`settled for ${minSec} s (no compaction check for local ${engine})`);
      else
        done.push(
          await waitForCassandraCompactions(
            (await runningState(engine)).nodes.map((n) => n.address),
            log,
          ),
        );
      if (phase.settle?.waitForRebalance) {
        const routers = async () => (await loadLocalEngine(engine)).connectionProperties(await runningState(engine));
        const url = engine === "mongodb" ? (await routers())["mongodb.url"] : undefined;
        done.push(await rebalanceWait(engine, url, log));
      }
      if (phase.serverPreset && engine === "cassandra")
        done.push(
          await switchCassandraDurableWrites(
            (await runningState(engine)).nodes.map((n) => n.address),
            phase.serverPreset,
          ),
        );
      return done.join("; ");
    },
  };
}

async function cqlTools(): Promise<{ bindingDir: string; ycsbCoreDir: string }> {
  return { bindingDir: await bindingClasspathDir("cassandra"), ycsbCoreDir: ycsbCoreDir() };
}
