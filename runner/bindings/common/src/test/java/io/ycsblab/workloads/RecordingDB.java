package io.ycsblab.workloads;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/** A DB that keeps every key it is asked for (YCSB's BasicDB only prints them), and counts its instances. */
public class RecordingDB extends DB {
  static final List<String> KEYS = new CopyOnWriteArrayList<>();
  static final AtomicInteger INITS = new AtomicInteger();
  static final AtomicInteger CLEANUPS = new AtomicInteger();

  static void reset() {
    KEYS.clear();
    INITS.set(0);
    CLEANUPS.set(0);
  }

  @Override
  public void init() {
    INITS.incrementAndGet();
  }

  @Override
  public void cleanup() {
    CLEANUPS.incrementAndGet();
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    KEYS.add(key);
    return Status.OK;
  }

  @Override
  public Status scan(String table, String startkey, int n, Set<String> fields, Vector<HashMap<String, ByteIterator>> r) {
    KEYS.add(startkey);
    return Status.OK;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    KEYS.add(key);
    return Status.OK;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    KEYS.add(key);
    return Status.OK;
  }

  @Override
  public Status delete(String table, String key) {
    return Status.OK;
  }
}
