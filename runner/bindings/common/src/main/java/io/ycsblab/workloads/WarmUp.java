package io.ycsblab.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.WorkloadException;

/**
 * A warm-up inside the measuring YCSB process (seed 002, method step 5: "Warm-up for 1 minute for the database to
 * hit a steady state", then "Run the current load for 5 minutes" with the same clients).
 *
 * <p>YCSB 0.17.0 calls Workload.init before it creates its measuring DB instances, starts its status thread and
 * starts the clock of maxexecutiontime and of [OVERALL]. A warm-up run from init therefore is in no measurement: its
 * threads use DB instances of their own (the binding class itself, not YCSB's measuring DBWrapper), made and
 * initialised as YCSB makes them. They stay open until the workload's cleanup, so the binding's shared session
 * (every ycsb-lab binding shares one per process) carries the measurement on the connections the warm-up opened,
 * with the JIT and the prepared statements as warm as the warm-up left them.
 */
final class WarmUp {
  /** One operation of the workload against an unmeasured DB; false stops that thread (as in YCSB's ClientThread). */
  interface Operation {
    boolean run(DB db);
  }

  private final List<DB> open = new ArrayList<>();
  private final AtomicLong operations = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  /** Opens `threads` DB instances of class `dbClass` with YCSB's properties, as YCSB's ClientThread would. */
  void open(String dbClass, Properties properties, int threads) throws WorkloadException {
    for (int i = 0; i < threads; i++) {
      DB db;
      try {
        db = (DB) Class.forName(dbClass).getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException | ClassCastException e) {
        throw new WorkloadException("warm-up: cannot make a DB of class " + dbClass + ": " + e, e);
      }
      db.setProperties(properties);
      try {
        db.init();
      } catch (DBException e) {
        throw new WorkloadException("warm-up: DB " + dbClass + " failed to initialise: " + e.getMessage(), e);
      }
      open.add(db);
    }
  }

  /**
   * Runs the operation on every open DB, one thread each, for `seconds`; each thread paced at `opsPerSecPerThread`
   * when that is above 0 (YCSB's -target spread over the threads). Returns the operations run.
   */
  long run(Operation operation, double seconds, double opsPerSecPerThread) throws WorkloadException {
    long deadline = System.nanoTime() + (long) (seconds * 1e9);
    List<Thread> threads = new ArrayList<>();
    for (DB db : open) {
      Thread t = new Thread(() -> loop(db, operation, deadline, opsPerSecPerThread), "ycsblab-warmup");
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new WorkloadException("warm-up interrupted", e);
      }
    }
    return operations.get();
  }

  private void loop(DB db, Operation operation, long deadline, double opsPerSecPerThread) {
    long start = System.nanoTime();
    long done = 0;
    long gapNanos = opsPerSecPerThread > 0 ? (long) (1e9 / opsPerSecPerThread) : 0;
    while (System.nanoTime() < deadline) {
      try {
        if (!operation.run(db)) {
          return;
        }
      } catch (RuntimeException e) {
        if (failures.incrementAndGet() <= 10) {
          System.err.println("[ycsb-lab] warm-up operation failed: " + e);
        }
      }
      done++;
      operations.incrementAndGet();
      if (gapNanos > 0) {
        long due = start + done * gapNanos;
        long wait = Math.min(due, deadline) - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
      }
    }
  }

  long failures() {
    return failures.get();
  }

  /** Cleans up every DB the warm-up opened (YCSB calls the workload's cleanup after its own threads'). */
  void close() throws WorkloadException {
    WorkloadException first = null;
    for (DB db : open) {
      try {
        db.cleanup();
      } catch (DBException e) {
        first = first != null ? first : new WorkloadException("warm-up DB cleanup failed: " + e.getMessage(), e);
      }
    }
    open.clear();
    if (first != null) {
      throw first;
    }
  }
}
