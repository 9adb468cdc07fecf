package io.ycsblab.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

class LongKeyWorkloadTest {
  private static final long PAST_INT = 16_000_000_000L;

  @BeforeAll
  static void measurements() {
    // CoreWorkload takes YCSB's Measurements singleton when it is made, as YCSB's Client sets it up first.
    Measurements.setProperties(new Properties());
  }

  @BeforeEach
  void clear() {
    RecordingDB.reset();
  }

  private static Properties props(String... pairs) {
    Properties p = new Properties();
    p.setProperty("fieldcount", "2");
    p.setProperty("fieldlength", "4");
    p.setProperty("insertorder", "ordered");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static LongKeyWorkload workload(Properties p) throws WorkloadException {
    LongKeyWorkload w = new LongKeyWorkload();
    w.init(p);
    return w;
  }

  private static long keyNumber(String key) {
    return Long.parseLong(key.substring("user".length()));
  }

  @Test
  void aLoadPast2To31InsertsExactlyItsOwnRange() throws Exception {
    LongKeyWorkload w = workload(props("recordcount", "16000000000", "insertstart", "15999000000", "insertcount", "1000"));
    RecordingDB db = new RecordingDB();
    for (int i = 0; i < 1000; i++) {
      assertTrue(w.doInsert(db, null));
    }
    List<Long> expected = LongStream.range(15_999_000_000L, 15_999_001_000L).boxed().collect(Collectors.toList());
    assertEquals(expected, RecordingDB.KEYS.stream().map(LongKeyWorkloadTest::keyNumber).collect(Collectors.toList()));
  }

  @Test
  void aRunPast2To31ReadsKeysOfTheWholeLongRange() throws Exception {
    Properties p = props("recordcount", "16000000000", "operationcount", "1000", "readproportion", "1",
        "updateproportion", "0", "requestdistribution", "uniform");
    // YCSB's own CoreWorkload cannot even start this phase: insertcount defaults to recordcount as an int.
    assertThrows(NumberFormatException.class, () -> new CoreWorkload().init(p));
    LongKeyWorkload w = workload(p);
    RecordingDB db = new RecordingDB();
    for (int i = 0; i < 1000; i++) {
      assertTrue(w.doTransaction(db, null));
    }
    List<Long> keys = RecordingDB.KEYS.stream().map(LongKeyWorkloadTest::keyNumber).collect(Collectors.toList());
    assertEquals(1000, keys.size());
    assertTrue(keys.stream().allMatch(k -> k >= 0 && k < PAST_INT), "every key is a loaded one");
    // Uniform over 16e9 keys: about 87% lie past 2^31; CoreWorkload's intValue() would leave none there.
    long past = keys.stream().filter(k -> k > Integer.MAX_VALUE).count();
    assertTrue(past > 800, past + " of 1000 keys past 2^31");
  }

  @Test
  void zipfianReadsPast2To31StayInTheDataSet() throws Exception {
    LongKeyWorkload w = workload(props("recordcount", "16000000000", "operationcount", "1000", "readproportion", "0.5",
        "updateproportion", "0.5", "requestdistribution", "zipfian"));
    RecordingDB db = new RecordingDB();
    for (int i = 0; i < 1000; i++) {
      w.doTransaction(db, null);
    }
    List<Long> keys = RecordingDB.KEYS.stream().map(LongKeyWorkloadTest::keyNumber).collect(Collectors.toList());
    assertTrue(keys.stream().allMatch(k -> k >= 0 && k < PAST_INT));
    assertTrue(keys.stream().anyMatch(k -> k > Integer.MAX_VALUE));
  }

  /**
   * Seed 001's write/scan (25% inserts, zipfian) at 32 nodes and scale 0.01: 4.8M records. A phase bounded by time
   * only passes operationcount=2,000,000,000; sized for it (CoreWorkload's rule) the key space is 1,004,800,001
   * keys, of which only the 4.8M loaded exist, so each chosen key takes about 209 draws. Sized for the inserts a
   * count-free phase expects (none, ycsblab.keyspace.operationcount=0) every draw is a key.
   */
  @Test
  void aTimeCappedPhaseDrawsEachKeyOnceWhenItsKeySpaceIsNotSizedForTheSentinelCount() throws Exception {
    String[] writeScan = {"recordcount", "4800000", "operationcount", "2000000000", "readproportion", "0.25",
        "scanproportion", "0.25", "updateproportion", "0.25", "insertproportion", "0.25", "requestdistribution", "zipfian"};
    LongKeyWorkload sizedForSentinel = workload(props(writeScan));
    Properties capped = props(writeScan);
    capped.setProperty(LongKeyWorkload.KEYSPACE_OPERATIONS, "0");
    LongKeyWorkload sizedForNone = workload(capped);
    assertEquals(1_004_800_001L, sizedForSentinel.keySpaceItems());
    assertEquals(4_800_001L, sizedForNone.keySpaceItems());
    for (int i = 0; i < 2000; i++) {
      sizedForSentinel.keyChooser().next();
      sizedForNone.keyChooser().next();
    }
    double sentinelRate = (double) sizedForSentinel.keyChooser().draws() / sizedForSentinel.keyChooser().keys();
    double noneRate = (double) sizedForNone.keyChooser().draws() / sizedForNone.keyChooser().keys();
    assertTrue(sentinelRate > 100, "draws per key sized for 2e9 operations: " + sentinelRate);
    assertTrue(noneRate < 1.01, "draws per key sized for none: " + noneRate);
  }

  @Test
  void aFiniteCountSizesTheKeySpaceAsCoreWorkloadDoes() throws Exception {
    LongKeyWorkload w = workload(props("recordcount", "1000", "operationcount", "900000", "insertproportion", "0.25",
        "readproportion", "0.75", "requestdistribution", "zipfian"));
    // CoreWorkload: insertstart + insertcount + (int) (operationcount * insertproportion * 2), inclusive.
    assertEquals(1000 + 450_000 + 1, w.keySpaceItems());
  }

  @Test
  void runPhaseInsertsGoToThisClientsOwnKeys() throws Exception {
    LongKeyWorkload w = workload(props("recordcount", "200", "operationcount", "10", "insertproportion", "1",
        "readproportion", "0", "updateproportion", "0", LongKeyWorkload.CLIENT, "1", LongKeyWorkload.CLIENTS, "2",
        LongKeyWorkload.LANE, "1", LongKeyWorkload.LANES, "2"));
    RecordingDB db = new RecordingDB();
    for (int i = 0; i < 3; i++) {
      w.doTransaction(db, null);
    }
    // recordcount + (k * lanes + lane) * clients + client: 200 + 2 + 1, then every 4th.
    assertEquals(List.of(203L, 207L, 211L), RecordingDB.KEYS.stream().map(LongKeyWorkloadTest::keyNumber).collect(Collectors.toList()));
  }

  @Test
  void warmUpRunsInThisProcessUnmeasuredAndKeepsItsConnectionsUntilCleanup() throws Exception {
    LongKeyWorkload w = workload(props("recordcount", "100", "operationcount", "10", "readproportion", "1",
        "updateproportion", "0", "db", RecordingDB.class.getName(), "threadcount", "3", "dotransactions", "true",
        LongKeyWorkload.WARMUP_SECONDS, "0.3"));
    assertEquals(3, RecordingDB.INITS.get(), "one DB per thread, as YCSB's ClientThread has");
    assertTrue(RecordingDB.KEYS.size() > 100, "warm-up operations ran: " + RecordingDB.KEYS.size());
    assertEquals(0, RecordingDB.CLEANUPS.get(), "the warm-up's DBs stay open for the measurement");
    w.cleanup();
    assertEquals(3, RecordingDB.CLEANUPS.get());
  }

  @Test
  void badCountsFailNamingTheProperty() {
    WorkloadException e = assertThrows(WorkloadException.class,
        () -> workload(props("recordcount", "100", "insertstart", "90", "insertcount", "20")));
    assertTrue(e.getMessage().contains("insertstart 90 + insertcount 20 is past recordcount 100"), e.getMessage());
    e = assertThrows(WorkloadException.class, () -> workload(props("recordcount", "1e10")));
    assertTrue(e.getMessage().contains("property recordcount must be a whole number"), e.getMessage());
    e = assertThrows(WorkloadException.class,
        () -> workload(props("recordcount", "100", "dotransactions", "false", LongKeyWorkload.WARMUP_SECONDS, "1")));
    assertTrue(e.getMessage().contains("not a load"), e.getMessage());
    e = assertThrows(WorkloadException.class, () -> workload(props("recordcount", "100", "dataintegrity", "true")));
    assertTrue(e.getMessage().contains("dataintegrity"), e.getMessage());
  }
}
