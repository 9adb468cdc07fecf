import type { ScenarioSpec } from "./scenario.js";

/**
 * The built-in scenarios: one per seed study (DESIGN.md "Scenarios the stacks must reproduce") and a cheap
 * quickstart. Retired instance types map to current ones; `original` names what the study used.
 */

const TWO_POW_THREADS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

export const SCENARIOS = {
  quickstart: {
    name: "quickstart",
    title: "Quickstart: one small node, one client, workloads A and B in a minute",
    sources: [{ note: "ycsb-lab's own smoke scenario" }],
    engines: ["cassandra", "mongodb", "couchbase", "hbase"],
    nodeCounts: [1, 3],
    presets: ["throughput", "balanced", "durable"],
    dataNode: { instanceType: "m6i.large", storage: { kind: "ebs", ebsType: "gp3", sizeGiB: 30 } },
    clientNode: { instanceType: "c6i.large" },
    clients: { count: 1 },
    replication: 1,
    records: { total: 10_000, fieldCount: 10, fieldLengthBytes: 100 },
    threads: { perClient: 8 },
    workloads: [
      { workload: "a", operationCount: 10_000, maxExecutionTimeSec: 60 },
      { workload: "b", operationCount: 10_000, maxExecutionTimeSec: 60 },
    ],
    operationCountPer: "total",
    repeats: 1,
    departures: [],
    defaults: { engine: "cassandra", nodes: 1, preset: "balanced" },
  },
  "datastax-2013": {
    name: "datastax-2013",
    title: "Benchmarking Top NoSQL Databases (DataStax / End Point, 2013)",
    sources: [{ seed: "001" }],
    engines: ["cassandra", "hbase", "mongodb"],
    nodeCounts: [1, 2, 4, 8, 16, 32],
    // The study does not state durability settings; the engines ran with their defaults.
    presets: ["balanced"],
    // m1.xlarge: 15 GB RAM, 4 cores, 4 local instance disks (seed 001); m5d.xlarge: 16 GiB, 4 vCPU, local NVMe.
    dataNode: { instanceType: "m5d.xlarge", original: "m1.xlarge", storage: { kind: "instance-store" } },
    clientNode: { instanceType: "m5.xlarge", original: "m1.xlarge" },
    // "a client instance for every 3 data instances (rounded up)"
    clients: { dataNodesPerClient: 3 },
    replication: 1,
    // "15M records (30GB) per data node", fieldcount 20 (2 KB records at YCSB's default 100-byte fields)
    records: { perNode: 15_000_000, fieldCount: 20, fieldLengthBytes: 100 },
    requestDistribution: "zipfian",
    // "128 client threads per data instance (32 per CPU core) ... distributed across the client instances"; line 154:
    // "For the load process, MongoDB was not able to scale effectively to 32 nodes ... until the thread count was
    // reduced to 20."
    threads: {
      perDataNode: 128,
      loadOverrides: [{ engine: "mongodb", nodes: [32], perClient: 20, source: "seed 001 line 154" }],
    },
    workloads: [
      { workload: "b", operationCount: 900_000 },
      { workload: "a", operationCount: 900_000 },
      { workload: "write-mostly", operationCount: 900_000 },
      // "max execution time was limited to 1 hour" for the scan workloads
      { workload: "read-scan", maxExecutionTimeSec: 3600 },
      { workload: "write-scan", maxExecutionTimeSec: 3600 },
      { workload: "read-latest", operationCount: 900_000 },
      { workload: "f", operationCount: 900_000 },
    ],
    // Lines 73-77: one node: "create 'usertable', 'data'"; more: NUMREGIONS => (node count), SPLITALGO => 'HexStringSplit'.
    hbaseSplit: { algorithm: "HexStringSplit", regionsPerNode: 1, source: "seed 001 lines 73-77" },
    // Line 114: "using an operation count of 900,000". YCSB counts operationcount per client, and the driver split
    // only the record count over the clients (line 118: "Insert count for each set of client instances was then
    // calculated by distributing the record count"): each client ran 900,000.
    operationCountPer: "client",
    // Line 49: "End Point performed each test 3 times on 3 different days."
    repeats: 3,
    repeatScope: "test",
    resets: {
      repeat: {
        wipeData: true,
        restartServer: true,
        dropCaches: false,
        source: 'seed 001 line 49: "New EC2 instances were used for each test run"',
      },
    },
    departures: [
      {
        what: "m1.xlarge data and client nodes (lines 53-55) run as m5d.xlarge / m5.xlarge",
        why: "m1 is retired; m5d.xlarge has the same 4 cores and 16 GiB with local NVMe instead of 4 spinning disks in RAID",
        fields: ["dataNode.instanceType", "clientNode.instanceType"],
      },
      {
        what: "Cassandra 1.1.6, HBase 0.94.3, MongoDB 2.2.2 (lines 61, 71, 82) run as the current releases",
        why: "the old releases do not run on current systems; presets translate each setting (model/presets.ts)",
      },
      {
        what: "durability is not stated (lines 59-95 print no commitlog, journal or WAL setting): engines run their defaults (balanced)",
        why: "the paper names no commitlog, journal or WAL setting",
      },
      {
        what: "each of the 3 repeats runs on the same instances, wiped and restarted, not on new instances on 3 days (line 49)",
        why: "one run holds a plan's repeats; a new deployment per repeat is another stack run (its run.repeat)",
      },
      {
        what: "Cassandra tokens by num_tokens (vnodes), not the computed initial_token (line 61)",
        why: "Cassandra 5.0 allocates tokens itself; the ring is as even",
      },
      {
        what: "900,000 operations per client (line 114)",
        why: "YCSB counts operationcount per client and the driver split only the record count (line 118)",
      },
      {
        what: "write/scan and read-latest inserts go to per-client key ranges (line 118 splits only the load's records over the clients)",
        why: "stock YCSB starts every client's inserts at recordcount, so the clients would overwrite each other's keys",
      },
      {
        what: "HBase keeps one copy of each record, where HDFS then kept 3 by default (dfs.replication; the paper prints no hdfs-site.xml, lines 69-77, and no replication for any engine)",
        why: "the scenario has one replication for every engine: Cassandra's keyspace and MongoDB's unreplicated shards keep one copy, and three HDFS copies would make HBase alone write every record three times",
      },
    ],
    // Seed 001: m1.xlarge's local instance disks, nothing said of a separate log device: the commit log stays on them.
    logDevice: {
      presets: {},
      source: "seed 001: data on the instances' local disks; no separate log device is described",
    },
    defaults: { engine: "cassandra", nodes: 32, preset: "balanced" },
  },
  "endpoint-2015": {
    name: "endpoint-2015",
    title: "Benchmarking Top NoSQL Databases (End Point, 2015)",
    sources: [{ seed: "000" }],
    engines: ["cassandra", "couchbase", "hbase", "mongodb"],
    nodeCounts: [1, 2, 4, 8, 16, 32],
    // "Ensure that all data written was done in a manner that allowed no data loss (i.e. durable writes)": a goal the
    // printed configuration (lines 508-626) keeps for Cassandra only; the others ran on their defaults.
    presets: ["durable", "balanced", "throughput"],
    enginePresets: {
      cassandra: {
        presets: ["durable"],
        source: "seed 000 lines 525-526: commitlog_sync: batch, commitlog_sync_batch_window_in_ms: 2",
      },
      hbase: {
        presets: ["balanced"],
        offered: ["durable"],
        source: "seed 000 lines 562-626: hbase-site.xml sets no WAL durability, HBase's default SYNC_WAL",
      },
      mongodb: {
        presets: ["balanced"],
        offered: ["durable"],
        source: "seed 000 lines 546-560: mongod started without a journal or write-concern option, MongoDB's defaults",
      },
      couchbase: {
        presets: ["throughput"],
        offered: ["durable"],
        source: "seed 000 lines 99-102, 530-544: a default bucket and no durability, acknowledged from memory",
      },
    },
    // "We allowed each database to perform non-durable writes for this stage [load] only"
    loadPreset: "throughput",
    presetServer: {
      cassandra: {
        // Lines 525-526: commitlog_sync: batch, commitlog_sync_batch_window_in_ms: 2. Cassandra 4.0+ batch mode no
        // longer waits for a window; its "group" mode is the old batch window (CASSANDRA-13530).
        durable: { commitlogSync: "group", commitlogSyncGroupWindowMs: 2, source: "seed 000 lines 525-526" },
      },
    },
    // i2.xlarge: 30.5 GB, 4 cores, 800 GB SSD; i4i.xlarge: 32 GiB, 4 vCPU, 937 GB NVMe.
    dataNode: { instanceType: "i4i.xlarge", original: "i2.xlarge", storage: { kind: "instance-store" } },
    // c3.xlarge: 7.5 GB, 4 cores; c6i.xlarge: 8 GiB, 4 vCPU.
    clientNode: { instanceType: "c6i.xlarge", original: "c3.xlarge" },
    clients: { dataNodesPerClient: 1 },
    replication: 1,
    // "500 million records per data node", fieldcount and fieldlength 10 (100-byte records)
    records: { perNode: 500_000_000, fieldCount: 10, fieldLengthBytes: 10 },
    requestDistribution: "uniform",
    // "256 threads per data instance during the workloads ... lowered to 40 threads per client during the load"
    threads: { perDataNode: 256, loadPerClient: 40 },
    workloads: [
      { workload: "b", operationCount: 9_000_000, maxExecutionTimeSec: 3600 },
      { workload: "a", operationCount: 9_000_000, maxExecutionTimeSec: 3600 },
      { workload: "f", operationCount: 9_000_000, maxExecutionTimeSec: 3600 },
      { workload: "mixed-analytical", operationCount: 9_000_000, maxExecutionTimeSec: 3600 },
      { workload: "insert-mostly", operationCount: 9_000_000, maxExecutionTimeSec: 3600 },
    ],
    // Lines 177-180: "the operation count was set to 9 million operations for each workload ... the max execution
    // time was limited to 1 hour if that operation count wasn't reached". YCSB counts per client, and a 1 h cap
    // only matters if each client runs 9M (9M in total would take 40 s at 32 nodes' 227,293 ops/s, workload B).
    operationCountPer: "client",
    // Lines 65-67: "checked for any ongoing compaction processes, and waited until those completed"
    settle: { waitForCompactions: true },
    // Lines 41-43 and 204-207: "each combination of database type and node count was run three times on different
    // days ... the average was calculated for the three sets of results"
    repeats: 3,
    repeatScope: "test",
    resets: {
      repeat: {
        wipeData: true,
        restartServer: true,
        dropCaches: false,
        source:
          'seed 000 lines 41-43, 62: "New EC2 instances were used for each test run"; "Each test started with an empty database"',
      },
    },
    departures: [
      {
        what: "i2.xlarge data and c3.xlarge client nodes (lines 45-48) run as i4i.xlarge / c6i.xlarge",
        why: "both are retired; the replacements have the same cores and memory class, NVMe instead of SATA SSD",
        fields: ["dataNode.instanceType", "clientNode.instanceType"],
      },
      {
        what: "Cassandra 2.1.0, Couchbase 3.0.1, HBase 0.98.6, MongoDB 2.8.0-rc4 (lines 77, 95, 112, 129) run as the current releases",
        why: "the old releases do not run on current systems; presets translate each setting",
      },
      {
        what: "Cassandra's 2 ms batch window (lines 525-526) is commitlog_sync: group with a 2 ms window",
        why: "since Cassandra 4.0 batch mode syncs at once and ignores the window; group mode is the old batch window",
        fields: ["presetServer.cassandra.durable.commitlogSync"],
      },
      {
        what: "HBase, MongoDB and Couchbase may also run durable (FSYNC_WAL with hsync, j:true, persistToMajority), which the paper never set for them (lines 530-626); such results carry ycsblab.presetNote",
        why: "the paper's goal was durable writes (lines 161-162) but only Cassandra's printed configuration has one; its own settings (the defaults) are each engine's default cell",
      },
      {
        what: "each of the 3 repeats runs on the same instances, wiped and restarted, not on new instances on 3 days (lines 41-43)",
        why: "one run holds a plan's repeats; a new deployment per repeat is another stack run (its run.repeat)",
      },
      {
        what: "9 million operations per client (lines 177-180)",
        why: "YCSB counts operationcount per client; 9M in total would end a 32-node phase in 40 s, far from the 1 h cap the paper set",
      },
      {
        what: "mixed and insert-mostly inserts go to per-client key ranges (lines 182-185 split only the load's records)",
        why: "stock YCSB starts every client's inserts at recordcount, so the clients would overwrite each other's keys",
      },
      {
        what: "insert-mostly also runs at 16 and 32 nodes (the paper has no results there, lines 332-334)",
        why: "the plan runs every workload at every size; the published series simply stops at 8",
      },
      {
        what: "HBase compression stays off at every size (lines 497-500 turned it on at 8+ nodes)",
        why: "compression was a workaround for full disks at 500M records per node; the scale knob decides the data size here",
      },
      {
        what: "Couchbase's local.ini (file_compression none, compaction thresholds, lines 533-544) is not rendered",
        why: "Couchbase 7 has no CouchDB-era local.ini; full eviction is kept",
      },
      {
        what: "latency is the count-weighted mean over clients and merged-HDR percentiles, not the average of client averages (lines 199-202)",
        why: "the average of averages weighs a slow client like a fast one; it is still reported as averageOfClientAveragesUs",
      },
    ],
    // Seed 000 line 46: "a single volume of 800 GB of SSD" per node: the commit log shares it.
    logDevice: { presets: {}, source: 'seed 000 line 46: i2.xlarge with "a single volume of 800 GB of SSD"' },
    defaults: { engine: "cassandra", nodes: 4, preset: "durable" },
  },
  "lineate-2014": {
    name: "lineate-2014",
    title: "NoSQL Performance when Scaling by RAM (Lineate, 2014)",
    sources: [{ seed: "002" }],
    engines: ["cassandra", "couchbase", "mongodb"],
    nodeCounts: [4, 6, 8],
    presets: ["balanced", "throughput"],
    enginePresets: {
      // Appendix C, Cassandra-specific parameter 7 (line 443): "Disable the commit log."
      cassandra: { presets: ["throughput"], source: 'seed 002 line 443: "Disable the commit log."' },
      // Couchbase on its defaults (lines 449-477 change no durability setting): acknowledged from memory.
      couchbase: { presets: ["throughput"], source: "seed 002 lines 449-477: no durability setting changed" },
      // MongoDB on its defaults (lines 479-503): journaled, the balanced preset.
      mongodb: { presets: ["balanced"], source: "seed 002 lines 479-503: MongoDB defaults" },
    },
    // Bare metal: 2 x Xeon E5-2620 v2 (12 cores), 64 GB, SSD RAID-1 (appendix A); m6id.4xlarge: 16 vCPU, 64 GiB, NVMe.
    dataNode: {
      instanceType: "m6id.4xlarge",
      original: "2x Xeon E5-2620 v2, 64 GB, SSD (bare metal)",
      storage: { kind: "instance-store" },
    },
    // 32 clients: 4-core i5-4440, 8 GB (appendix A).
    clientNode: { instanceType: "c6i.xlarge", original: "Core i5-4440, 8 GB (bare metal)" },
    clients: { count: 32 },
    // "We replicate each piece of data to two servers for each database"
    replication: 2,
    // 20M/30M/40M records for 4/6/8 nodes, 10 fields x 150 bytes (appendix B)
    records: { perNode: 5_000_000, fieldCount: 10, fieldLengthBytes: 150 },
    // "Incrementally increase the number of threads per client, running for 5 minutes per increment"
    threads: { stepUp: { start: 4, factor: 2, max: 512, minGainPct: 5 } },
    workloads: [
      { workload: "b", maxExecutionTimeSec: 300 },
      { workload: "a", maxExecutionTimeSec: 300 },
    ],
    // Each step runs 5 minutes, bounded by time (line 90: "Run the current load for 5 minutes").
    operationCountPer: "client",
    // "Warm-up for 1 minute for the database to hit a steady state" (line 88), in the measuring clients' own process.
    warmupSec: 60,
    // Line 82: "Wait for the database to finish rebalancing" after each load (model/settle.ts: what each engine waits for).
    settle: { waitForCompactions: false, waitForRebalance: true },
    // Lines 238-239: "We repeated tests in the final configuration two times"
    repeats: 2,
    repeatScope: "test",
    resets: {
      workload: {
        wipeData: true,
        restartServer: false,
        dropCaches: false,
        source:
          'seed 002 lines 80, 96: "Reload database and populate a 20M record dataset"; the balanced workload does "the same steps precisely"',
      },
      step: {
        wipeData: false,
        restartServer: false,
        dropCaches: true,
        source: 'seed 002 lines 84, 92-93: "Clear the caches" before each step ("steps 3 to 6")',
      },
    },
    departures: [
      {
        what: "bare-metal servers (2x E5-2620 v2, 64 GB) and 32 bare-metal clients (lines 281-304) run as m6id.4xlarge / c6i.xlarge",
        why: "no bare metal here; the instances match cores and memory",
        fields: ["dataNode.instanceType", "clientNode.instanceType"],
      },
      {
        what: "threads per client double from 4 to 512 (lines 92-93: 'Incrementally increase the number of threads per client')",
        why: "the paper prints no thread counts; doubling from a few threads reaches any saturation point in a few 5-minute steps",
      },
      {
        what: "Cassandra 2.0.9, Couchbase 2.5.1, MongoDB 2.6.4 (line 40) run as the current releases",
        why: "the old releases do not run on current systems; presets translate each setting",
      },
      {
        what: "Cassandra through CQL, not the Thrift results the paper reported (lines 150-152)",
        why: "Thrift was removed in Cassandra 4.0",
      },
      {
        what: "the last thread step is where total throughput stops rising by 5%, not where latency starts to rise (lines 191-193)",
        why: "the paper's choice was, in its words, inherently subjective; the runner must decide the same on every client",
      },
      {
        what: "the 2 repeats repeat the whole sequence (reload, every step) (lines 238-239)",
        why: "the paper repeated 'the final configuration' without saying more",
      },
      {
        what: "Couchbase's memcached threads, reader/writer threads, compaction off and read optimisation (lines 459-477) are not set",
        why: "they are Couchbase 2.5 diag/eval settings with no Couchbase 7 equivalent in the product yet",
      },
      {
        what: "clearing the caches (line 84) needs root on the data nodes",
        why: "where the runner cannot (a local run), the reset says so in the run's manifest",
      },
      {
        what: "the wait for the database 'to finish rebalancing' after each load (line 82) polls only MongoDB's balancer (balancerCollectionStatus until usertable is compliant, at most 1 h, then measures anyway)",
        why: "a load moves no Cassandra token range and no Couchbase vBucket; MongoDB's balancer may still move chunks (model/settle.ts, runner/mongodb-balancer.ts)",
      },
    ],
    // Seed 002 appendix C, MongoDB 1: "Place journal, log and data files on separate storage devices".
    logDevice: {
      presets: { mongodb: ["throughput", "balanced", "durable"] },
      source:
        'seed 002 appendix C, MongoDB-specific parameters 1: "Place journal, log and data files on separate storage devices"',
    },
    defaults: { engine: "cassandra", nodes: 4, preset: "balanced" },
  },
  "andor-parv-2019": {
    name: "andor-parv-2019",
    title: "Runtime performance benchmarking for NoSQL databases (Andor & Pârv, 2019)",
    sources: [{ seed: "003" }],
    engines: ["cassandra", "mongodb"],
    nodeCounts: [1],
    presets: ["balanced"],
    // i7-4770 (4 cores, 8 threads), 16 GB, 500 GB HDD; c6i.2xlarge: 8 vCPU, 16 GiB.
    dataNode: {
      instanceType: "c6i.2xlarge",
      original: "Core i7-4770, 16 GB, 500 GB HDD (bare metal)",
      storage: { kind: "ebs", ebsType: "gp3", sizeGiB: 500 },
    },
    clientNode: { instanceType: "c6i.2xlarge", original: "Core i7-4770, 16 GB (bare metal)" },
    clients: { count: 1 },
    replication: 1,
    // "4 million records ... 10 fields ... 100 byte string"
    records: { total: 4_000_000, fieldCount: 10, fieldLengthBytes: 100 },
    threads: { sweep: TWO_POW_THREADS },
    workloads: [{ workload: "a" }, { workload: "b" }],
    operationCounts: [1_000, 10_000, 100_000, 1_000_000],
    // One YCSB client (lines 229-231): its operationcount is the test's.
    operationCountPer: "client",
    // Lines 253-254: "Each test with a certain combination of workload, number of operations and number of client
    // threads was repeated three times."
    repeats: 3,
    repeatScope: "measurement",
    resets: {
      workload: {
        wipeData: true,
        restartServer: false,
        dropCaches: false,
        source:
          'seed 003 lines 300-303: "the data set corresponding to that workload was dropped. After that, the data set ... that corresponds to the second workload was loaded"',
      },
      operationCount: {
        wipeData: false,
        restartServer: true,
        dropCaches: false,
        source:
          'seed 003 lines 266-267, 298: "A batch of tests includes all tests having the same workload, number of operations, and database server"; "restarted the database server before each batch"',
      },
    },
    // "write request timeout in ms was set to 100000 ..." (section 3)
    serverSettings: {
      cassandra: {
        write_request_timeout: "100000ms",
        read_request_timeout: "50000ms",
        range_request_timeout: "100000ms",
        counter_write_request_timeout: "100000ms",
      },
    },
    departures: [
      {
        what: "Windows 7 servers (i7-4770, 16 GB, HDD; lines 234-239) run as c6i.2xlarge on Linux with gp3",
        why: "no Windows hosts or spinning disks here; the instance matches cores and memory",
        fields: ["dataNode.instanceType"],
      },
      {
        what: "each load runs on 1 client thread (lines 240-243 print no load settings)",
        why: "the first thread count of the sweep; the load is not measured by the study, only its data set matters",
      },
      {
        what: "YCSB's synchronous bindings, not the asynchronous variant of the Java drivers (line 265)",
        why: "YCSB 0.17.0's DB interface is synchronous: each client thread waits for its operation, as the project's bindings do",
      },
      {
        what: "Cassandra 3.11.0, MongoDB 3.4.4 and YCSB 0.12.0 (lines 143, 156, 212) run as the current releases and YCSB 0.17.0",
        why: "the old releases do not run on current systems",
      },
      {
        what: "each test's 3 repeats run one after another (lines 253-254)",
        why: "the paper does not say in which order; this keeps a batch between restarts",
      },
      {
        what: "Table 9 is recomputed from Tables 1-8, which print means only (lines 433-435)",
        why: "the spread of the repeats is not printed: each F is an upper bound of the paper's, within 1.5% (model/anova.ts)",
      },
    ],
    // Seed 003 ran one server and describes no separate log device.
    logDevice: { presets: {}, source: "seed 003: a single server; no separate log device is described" },
    defaults: { engine: "cassandra", nodes: 1, preset: "balanced" },
  },
  "usa-2015-durability": {
    name: "usa-2015-durability",
    title: "High Performance Benchmarking: MongoDB and NoSQL Systems (United Software Associates, 2015)",
    sources: [{ seed: "004" }],
    engines: ["cassandra", "couchbase", "mongodb"],
    nodeCounts: [1],
    presets: ["throughput", "balanced", "durable"],
    enginePresets: {
      // Line 81 and 169: Couchbase "No equivalent option available", "has no equivalent configuration".
      couchbase: {
        presets: ["throughput", "durable"],
        source: 'seed 004 lines 81, 169: Couchbase balanced: "No equivalent option available"',
      },
    },
    presetServer: {
      cassandra: {
        // Line 254 and note 2 (line 288): "create table with COMPACT STORAGE and leveledCompactionStrategy".
        throughput: { tableCompaction: "LeveledCompactionStrategy", source: "seed 004 lines 254, 288" },
        // Lines 263-264 and note 4 (line 292): commitlog_sync batch with a 10 ms window; 5.0's "group" mode is that window.
        durable: { commitlogSync: "group", commitlogSyncGroupWindowMs: 10, source: "seed 004 lines 263-264, 292" },
      },
    },
    // 2 x Xeon X5675 (12 cores), 96 GB, 2 x 960 GB SSD; i4i.4xlarge: 16 vCPU, 128 GiB, NVMe (+ a log volume where the preset wants one).
    dataNode: {
      instanceType: "i4i.4xlarge",
      original: "2x Xeon X5675, 96 GB, 2x 960 GB SSD (bare metal)",
      storage: { kind: "instance-store" },
    },
    // "Both servers were identical"
    clientNode: { instanceType: "i4i.4xlarge", original: "2x Xeon X5675, 96 GB (bare metal)" },
    clients: { count: 1 },
    replication: 1,
    // "20 Million documents, each with 10 fields"
    records: { total: 20_000_000, fieldCount: 10, fieldLengthBytes: 100 },
    requestDistribution: "zipfian",
    properties: { readallfields: "true", writeallfields: "false" },
    // "increasing the number of threads until the maximum throughput was reached without sacrificing latency"
    threads: { stepUp: { start: 8, factor: 2, max: 1024, minGainPct: 5 } },
    workloads: [
      { workload: "a", operationCount: 20_000_000, maxExecutionTimeSec: 900 },
      { workload: "b", operationCount: 20_000_000, maxExecutionTimeSec: 900 },
    ],
    // Line 280: "20 Million operations", one client (line 54).
    operationCountPer: "client",
    // Line 62: "Allow the database to stabilize after the load"
    settle: { waitForCompactions: true },
    repeats: 1,
    resets: {
      step: {
        wipeData: true,
        restartServer: true,
        dropCaches: false,
        source:
          'seed 004 lines 56, 60: "we removed the data files and restarted the database between each run ... each of the thread counts"; "Start with an empty database instance (data files wiped, server restarted)"',
      },
    },
    departures: [
      {
        what: "bare-metal servers (2x X5675, 96 GB, 2 SSDs; lines 214-221) run as i4i.4xlarge",
        why: "no bare metal here; the instance matches cores and memory with local NVMe",
        fields: ["dataNode.instanceType"],
      },
      {
        what: "every run stops at 15 minutes (maxexecutiontime=900), not only 'in some configurations where running 20 million operations would be prohibitively slow' (line 284)",
        why: "the paper does not say which configurations; the cap binds only where 20M operations take longer, and bounds the cost of the others",
        fields: ["workloads.a.maxExecutionTimeSec", "workloads.b.maxExecutionTimeSec"],
      },
      {
        what: "each step's reload of 20M records runs under the step's own preset (durable: a 10 ms commit window; lines 56-60)",
        why: "the paper wipes and reloads before every run and names no other setting for the load",
      },
      {
        what: "Cassandra 2.1.2, Couchbase 3.0.2, MongoDB 3.0.1 and the vendors' YCSB forks (lines 228-244) run as current releases and ycsb-lab's bindings",
        why: "the old releases and forks do not run on current systems",
      },
      {
        what: "MongoDB throughput runs with write concern j:false, not --nojournal (line 258)",
        why: "--nojournal was removed in MongoDB 6.1",
      },
      {
        what: "Couchbase durable is durability persistToMajority, not PersistTo=MASTER (line 266)",
        why: "SDK 3 replaced PersistTo with durability levels; on one node both wait for the disk",
      },
      {
        what: "Cassandra durable's 10 ms batch window (lines 263-264) is commitlog_sync: group with a 10 ms window",
        why: "since Cassandra 4.0 batch mode ignores the window; group mode is the old batch window",
        fields: ["presetServer.cassandra.durable.commitlogSync"],
      },
      {
        what: "Cassandra throughput's table has LeveledCompactionStrategy but not COMPACT STORAGE (line 254)",
        why: "COMPACT STORAGE was removed in Cassandra 4.0",
      },
      {
        what: "threads double from 8 to 1024 while total throughput rises by 5%, not 'until the maximum throughput was reached without sacrificing latency' (line 52)",
        why: "the runner must decide the same on every client from what they measured; latency is not judged",
      },
    ],
    // Seed 004 lines 271-274: only the balanced configuration moved the commit log / journal to a separate device.
    logDevice: {
      presets: { cassandra: ["balanced"], mongodb: ["balanced"] },
      source:
        'seed 004 lines 271-274: "For the balanced configuration ... the commitlog was placed on a separate device ... the journal was placed on a separate device"',
    },
    defaults: { engine: "cassandra", nodes: 1, preset: "durable" },
  },
} as const satisfies Record<string, ScenarioSpec>;

export type ScenarioName = keyof typeof SCENARIOS;

export function scenario(name: string): ScenarioSpec {
  if (!Object.hasOwn(SCENARIOS, name)) {
    throw new Error(`scenario: unknown scenario "${name}" (known: ${Object.keys(SCENARIOS).join(", ")})`);
  }
  return SCENARIOS[name as ScenarioName] as unknown as ScenarioSpec;
}
