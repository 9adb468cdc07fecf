package io.ycsblab.workloads;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.Client;
import site.ycsb.DB;
import site.ycsb.RandomByteIterator;
import site.ycsb.Status;
import site.ycsb.WorkloadException;
import site.ycsb.generator.ExponentialGenerator;
import site.ycsb.generator.HotspotIntegerGenerator;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.SequentialGenerator;
import site.ycsb.generator.UniformLongGenerator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB 0.17.0's CoreWorkload over the whole long key range, as ycsb-lab's plans run every phase.
 *
 * <p>CoreWorkload reads {@code recordcount} and {@code insertstart} as longs but {@code insertcount} as an int, whose
 * default ({@code recordcount - insertstart}) overflows past 2^31 records; its loads and key choices narrow every key
 * number to an int, so past 2^31 they write and read keys that are not the data set's. This class keeps them longs:
 * <ul>
 *   <li>{@code insertcount} is a long, by default {@code recordcount - insertstart}; a load inserts
 *       {@code insertstart..insertstart+insertcount-1} exactly.</li>
 *   <li>reads, updates, scans and read-modify-writes pick a long key number (KeyChooser).</li>
 *   <li>the zipfian key space expects inserts from {@code ycsblab.keyspace.operationcount} operations (default:
 *       {@code operationcount}, as CoreWorkload). A phase bounded by time only passes 0: CoreWorkload would size it
 *       for the 2,000,000,000 operations such a phase passes as its count and redraw nearly every key.</li>
 *   <li>run-phase inserts go to each client's own key numbers ({@code ycsblab.insertrange.*}, see physicalKey).</li>
 *   <li>{@code ycsblab.warmup.seconds}: a warm-up in this process before the measurement (WarmUp).</li>
 * </ul>
 * Everything else (operation mix, distributions, key hashing and padding, field sizes, retries) is CoreWorkload's:
 * its init builds it, from properties whose counts are first brought within an int where it parses one.
 * {@code dataintegrity=true} is refused: no ycsb-lab plan sets it.
 */
public class LongKeyWorkload extends CoreWorkload {
  public static final String KEYSPACE_OPERATIONS = "ycsblab.keyspace.operationcount";
  public static final String WARMUP_SECONDS = "ycsblab.warmup.seconds";
  public static final String CLIENT = "ycsblab.insertrange.client";
  public static final String CLIENTS = "ycsblab.insertrange.clients";
  public static final String LANE = "ycsblab.insertrange.lane";
  public static final String LANES = "ycsblab.insertrange.lanes";

  private List<String> fieldNames;
  private KeyChooser keys;
  private long keySpaceItems;
  private long client;
  private long clients;
  private long lane;
  private long lanes;
  private final WarmUp warmUp = new WarmUp();

  @Override
  public void init(Properties p) throws WorkloadException {
    Counts counts = Counts.of(p);
    super.init(counts.withinInt(p));
    if (Boolean.parseBoolean(p.getProperty(DATA_INTEGRITY_PROPERTY, "false"))) {
      throw new WorkloadException(
          getClass().getSimpleName() + " does not check data integrity: unset " + DATA_INTEGRITY_PROPERTY);
    }
    fieldNames = new ArrayList<>();
    String prefix = p.getProperty(FIELD_NAME_PREFIX, FIELD_NAME_PREFIX_DEFAULT);
    for (long i = 0; i < fieldcount; i++) {
      fieldNames.add(prefix + i);
    }
    String distribution = p.getProperty(REQUEST_DISTRIBUTION_PROPERTY, REQUEST_DISTRIBUTION_PROPERTY_DEFAULT);
    double insertProportion = Counts.decimal(p, INSERT_PROPORTION_PROPERTY, INSERT_PROPORTION_PROPERTY_DEFAULT);
    NumberGenerator longRange = longRangeChooser(p, distribution, counts, insertProportion);
    if (longRange != null) {
      keychooser = longRange;
    }
    keys = new KeyChooser(keychooser, transactioninsertkeysequence, keychooser instanceof ExponentialGenerator);
    clients = Counts.positive(p, CLIENTS, 1);
    client = Counts.below(p, CLIENT, clients);
    lanes = Counts.positive(p, LANES, 1);
    lane = Counts.below(p, LANE, lanes);
    warmUp(p);
  }

  /** CoreWorkload's key chooser for `distribution` built on long bounds; null where CoreWorkload's holds already. */
  private NumberGenerator longRangeChooser(Properties p, String distribution, Counts c, double insertProportion)
      throws WorkloadException {
    long first = c.insertStart;
    long last = c.insertStart + c.insertCount - 1;
    switch (distribution) {
      case "uniform":
        keySpaceItems = c.insertCount;
        return new UniformLongGenerator(first, last);
      case "sequential":
        keySpaceItems = c.insertCount;
        return new SequentialGenerator(first, last);
      case "zipfian":
        // CoreWorkload: room for twice the inserts the counted operations make, so the hot keys stay where they are.
        long expectedNewKeys = (long) (c.keySpaceOperations * insertProportion * 2.0);
        keySpaceItems = c.insertCount + expectedNewKeys + 1;
        return new ScrambledZipfianGenerator(first, c.insertStart + c.insertCount + expectedNewKeys);
      case "hotspot":
        keySpaceItems = c.insertCount;
        return new HotspotIntegerGenerator(first, last,
            Counts.decimal(p, HOTSPOT_DATA_FRACTION, HOTSPOT_DATA_FRACTION_DEFAULT),
            Counts.decimal(p, HOTSPOT_OPN_FRACTION, HOTSPOT_OPN_FRACTION_DEFAULT));
      default:
        // latest and exponential follow the inserted keys (long counters in CoreWorkload already).
        keySpaceItems = recordcount;
        return null;
    }
  }

  private void warmUp(Properties p) throws WorkloadException {
    double seconds = Counts.decimal(p, WARMUP_SECONDS, "0");
    if (seconds <= 0) {
      return;
    }
    if (!Boolean.parseBoolean(p.getProperty(Client.DO_TRANSACTIONS_PROPERTY, "true"))) {
      throw new WorkloadException(WARMUP_SECONDS + " warms up a run phase (-t), not a load");
    }
    int threads = (int) Counts.positive(p, Client.THREAD_COUNT_PROPERTY, 1);
    double target = Counts.decimal(p, Client.TARGET_PROPERTY, "0");
    String dbClass = p.getProperty(Client.DB_PROPERTY, "site.ycsb.BasicDB");
    warmUp.open(dbClass, p, threads);
    long ops = warmUp.run(db -> transaction(db, false), seconds, target > 0 ? target / threads : 0);
    String shown = seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
    System.err.println("[ycsb-lab] warm-up: " + shown + " s on " + threads + " thread(s) in this process, " + ops
        + " operation(s) (" + warmUp.failures() + " failed), not measured");
  }

  /** Size of the key space the key chooser draws from (zipfian: the loaded keys plus room for expected inserts). */
  long keySpaceItems() {
    return keySpaceItems;
  }

  KeyChooser keyChooser() {
    return keys;
  }

  /** The key number a CoreWorkload key number stands for: this client's own at or above recordcount. */
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

  private HashMap<String, ByteIterator> allValues() {
    HashMap<String, ByteIterator> values = new HashMap<>();
    for (String field : fieldNames) {
      values.put(field, new RandomByteIterator(fieldlengthgenerator.nextValue().longValue()));
    }
    return values;
  }

  private HashMap<String, ByteIterator> oneValue() {
    HashMap<String, ByteIterator> values = new HashMap<>();
    values.put(randomField(), new RandomByteIterator(fieldlengthgenerator.nextValue().longValue()));
    return values;
  }

  private String randomField() {
    return fieldNames.get(fieldchooser.nextValue().intValue());
  }

  /** The fields a read or scan asks for: all (null) or one chosen at random, as CoreWorkload. */
  private Set<String> readFields() {
    if (readallfields) {
      return null;
    }
    Set<String> one = new HashSet<>();
    one.add(randomField());
    return one;
  }

  @Override
  public boolean doInsert(DB db, Object threadstate) {
    long keynum = keysequence.nextValue().longValue();
    String key = buildKeyName(keynum);
    HashMap<String, ByteIterator> values = allValues();
    Status status;
    int retries = 0;
    while (true) {
      status = db.insert(table, key, values);
      if (status != null && status.isOk()) {
        break;
      }
      if (++retries > insertionRetryLimit) {
        System.err.println("Error inserting, not retrying any more. number of attempts: " + retries
            + ". Insertion Retry Limit: " + insertionRetryLimit);
        break;
      }
      System.err.println("Retrying insertion, retry count: " + retries);
      try {
        Thread.sleep((long) (1000 * insertionRetryInterval * (0.8 + 0.4 * Math.random())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return status != null && status.isOk();
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    return transaction(db, true);
  }

  /** One operation of the mix; `measured` false for the warm-up (its DBs are not YCSB's measuring wrappers). */
  private boolean transaction(DB db, boolean measured) {
    String operation = operationchooser.nextString();
    if (operation == null) {
      return false;
    }
    switch (operation) {
      case "READ":
        doTransactionRead(db);
        break;
      case "UPDATE":
        doTransactionUpdate(db);
        break;
      case "INSERT":
        doTransactionInsert(db);
        break;
      case "SCAN":
        doTransactionScan(db);
        break;
      default:
        readModifyWrite(db, measured);
    }
    return true;
  }

  @Override
  public void doTransactionRead(DB db) {
    db.read(table, buildKeyName(keys.next()), readFields(), new HashMap<>());
  }

  @Override
  public void doTransactionUpdate(DB db) {
    String key = buildKeyName(keys.next());
    db.update(table, key, writeallfields ? allValues() : oneValue());
  }

  @Override
  public void doTransactionScan(DB db) {
    String start = buildKeyName(keys.next());
    int length = scanlength.nextValue().intValue();
    db.scan(table, start, length, readFields(), new Vector<>());
  }

  @Override
  public void doTransactionInsert(DB db) {
    long keynum = transactioninsertkeysequence.nextValue();
    try {
      db.insert(table, buildKeyName(keynum), allValues());
    } finally {
      transactioninsertkeysequence.acknowledge(keynum);
    }
  }

  @Override
  public void doTransactionReadModifyWrite(DB db) {
    readModifyWrite(db, true);
  }

  /** Read then update one key, timed as one READ-MODIFY-WRITE as CoreWorkload 0.17.0 times it. */
  private void readModifyWrite(DB db, boolean measured) {
    String key = buildKeyName(keys.next());
    Set<String> fields = readFields();
    HashMap<String, ByteIterator> values = writeallfields ? allValues() : oneValue();
    Measurements measurements = Measurements.getMeasurements();
    long intended = measurements.getIntendedtartTimeNs();
    long start = System.nanoTime();
    db.read(table, key, fields, new HashMap<>());
    db.update(table, key, values);
    long end = System.nanoTime();
    if (measured) {
      measurements.measure("READ-MODIFY-WRITE", (int) ((end - start) / 1000));
      measurements.measureIntended("READ-MODIFY-WRITE", (int) ((end - intended) / 1000));
    }
  }

  @Override
  public void cleanup() throws WorkloadException {
    if (keys != null && keys.keys() > 0) {
      System.err.printf("[ycsb-lab] key chooser: %d key(s) in %d draw(s), %.2f per key, key space %d%n",
          keys.keys(), keys.draws(), (double) keys.draws() / keys.keys(), keySpaceItems);
    }
    warmUp.close();
    super.cleanup();
  }
}
