package io.ycsblab.workloads;

import java.util.Properties;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB 0.17.0's CoreWorkload with each client's run-phase inserts in key numbers of its own.
 *
 * <p>CoreWorkload starts every client's run-phase insert sequence at recordcount, so several clients running an
 * insert workload together (seed 000's mixed and insert-mostly workloads, seed 001's write/scan and read-latest),
 * or two insert workloads after one load, insert the same keys: overwrites in Cassandra, HBase and Couchbase,
 * duplicate-key errors in MongoDB.
 *
 * <p>This class changes one thing: a key number k at or above recordcount (an insert of this run, and the reads,
 * updates and scans CoreWorkload aims at keys it inserted) becomes
 * {@code recordcount + ((k - recordcount) * lanes + lane) * clients + client}. Each client of each insert phase
 * since the last load (its lane) thus writes, and reads back, keys no other writes. Key numbers below recordcount
 * (the loaded records), the operation mix, the request distributions (zipfian, latest: a client's latest are its
 * own latest inserts), key hashing and everything else are CoreWorkload's.
 *
 * <p>Properties (set per phase and client by ycsb-lab's plan, model/workloads.ts CLIENT_KEY_RANGE):
 * {@code ycsblab.insertrange.client} (0..clients-1), {@code ycsblab.insertrange.clients},
 * {@code ycsblab.insertrange.lane} (0..lanes-1), {@code ycsblab.insertrange.lanes}.
 */
public class ClientKeyRangeWorkload extends CoreWorkload {
  public static final String CLIENT = "ycsblab.insertrange.client";
  public static final String CLIENTS = "ycsblab.insertrange.clients";
  public static final String LANE = "ycsblab.insertrange.lane";
  public static final String LANES = "ycsblab.insertrange.lanes";

  private long client;
  private long clients;
  private long lane;
  private long lanes;

  @Override
  public void init(Properties p) throws WorkloadException {
    super.init(p);
    clients = positive(p, CLIENTS, 1);
    client = inRange(p, CLIENT, clients);
    lanes = positive(p, LANES, 1);
    lane = inRange(p, LANE, lanes);
  }

  /** The key number a CoreWorkload key number stands for: this client's own above recordcount. */
  public static long physicalKey(long keynum, long recordcount, long client, long clients, long lane, long lanes) {
    if (keynum < recordcount) {
      return keynum;
    }
    return recordcount + ((keynum - recordcount) * lanes + lane) * clients + client;
  }

  @Override
  protected String buildKeyName(long keynum) {
    return super.buildKeyName(physicalKey(keynum, recordcount, client, clients, lane, lanes));
  }

  private static long positive(Properties p, String name, long fallback) throws WorkloadException {
    String value = p.getProperty(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      long n = Long.parseLong(value.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new WorkloadException("property " + name + " must be a whole number >= 1, got \"" + value + "\"");
  }

  private static long inRange(Properties p, String name, long count) throws WorkloadException {
    String value = p.getProperty(name, "0").trim();
    try {
      long n = Long.parseLong(value);
      if (n >= 0 && n < count) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new WorkloadException("property " + name + " must be 0.." + (count - 1) + ", got \"" + value + "\"");
  }
}
