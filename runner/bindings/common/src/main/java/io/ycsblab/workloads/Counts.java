package io.ycsblab.workloads;

import java.util.Properties;
import site.ycsb.Client;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;

/**
 * The counts of a phase as longs, checked, and the properties CoreWorkload.init may parse as ints brought within one.
 *
 * <p>YCSB 0.17.0's CoreWorkload.init parses {@code insertcount} (default {@code recordcount - insertstart}) and, for
 * the zipfian distribution, {@code operationcount} with Integer.parseInt. LongKeyWorkload builds the key choosers
 * from these longs itself, so CoreWorkload gets an insertcount within an int (it only checks it against recordcount)
 * and an operationcount of 0 (it only sizes a zipfian key space that LongKeyWorkload replaces).
 */
final class Counts {
  final long recordCount;
  final long insertStart;
  final long insertCount;
  /** Operations the zipfian key space expects inserts from. */
  final long keySpaceOperations;

  private Counts(long recordCount, long insertStart, long insertCount, long keySpaceOperations) {
    this.recordCount = recordCount;
    this.insertStart = insertStart;
    this.insertCount = insertCount;
    this.keySpaceOperations = keySpaceOperations;
  }

  static Counts of(Properties p) throws WorkloadException {
    long records = whole(p, Client.RECORD_COUNT_PROPERTY, Client.DEFAULT_RECORD_COUNT, 0);
    // CoreWorkload reads recordcount=0 as "as many as an int holds".
    long recordCount = records == 0 ? Integer.MAX_VALUE : records;
    long insertStart = whole(p, Workload.INSERT_START_PROPERTY, Workload.INSERT_START_PROPERTY_DEFAULT, 0);
    if (insertStart > recordCount) {
      throw new WorkloadException(
          Workload.INSERT_START_PROPERTY + " " + insertStart + " is past recordcount " + recordCount);
    }
    long insertCount = whole(p, Workload.INSERT_COUNT_PROPERTY, String.valueOf(recordCount - insertStart), 0);
    if (insertStart + insertCount > recordCount) {
      throw new WorkloadException(Workload.INSERT_START_PROPERTY + " " + insertStart + " + "
          + Workload.INSERT_COUNT_PROPERTY + " " + insertCount + " is past recordcount " + recordCount);
    }
    String operations = p.getProperty(Client.OPERATION_COUNT_PROPERTY, "0");
    long keySpaceOperations = whole(p, LongKeyWorkload.KEYSPACE_OPERATIONS, operations.isBlank() ? "0" : operations, 0);
    return new Counts(recordCount, insertStart, insertCount, keySpaceOperations);
  }

  /** A copy of `p` that CoreWorkload.init parses without overflowing; the longs above replace what it builds. */
  Properties withinInt(Properties p) {
    Properties copy = new Properties();
    copy.putAll(p);
    copy.setProperty(Workload.INSERT_COUNT_PROPERTY, String.valueOf(Math.min(insertCount, Integer.MAX_VALUE)));
    copy.setProperty(Client.OPERATION_COUNT_PROPERTY, "0");
    return copy;
  }

  /** A whole number >= min (blank: the fallback), or an error naming the property. */
  static long whole(Properties p, String name, String fallback, long min) throws WorkloadException {
    String value = p.getProperty(name);
    if (value == null || value.isBlank()) {
      value = fallback;
    }
    try {
      long n = Long.parseLong(value.trim());
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new WorkloadException("property " + name + " must be a whole number >= " + min + ", got \"" + value + "\"");
  }

  static long positive(Properties p, String name, long fallback) throws WorkloadException {
    return whole(p, name, String.valueOf(fallback), 1);
  }

  /** A whole number in 0..count-1 (default 0). */
  static long below(Properties p, String name, long count) throws WorkloadException {
    long n = whole(p, name, "0", 0);
    if (n >= count) {
      throw new WorkloadException("property " + name + " must be 0.." + (count - 1) + ", got \"" + n + "\"");
    }
    return n;
  }

  /** A decimal >= 0, or an error naming the property. */
  static double decimal(Properties p, String name, String fallback) throws WorkloadException {
    String value = p.getProperty(name, fallback).trim();
    try {
      double d = Double.parseDouble(value);
      if (d >= 0 && Double.isFinite(d)) {
        return d;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new WorkloadException("property " + name + " must be a number >= 0, got \"" + value + "\"");
  }
}
