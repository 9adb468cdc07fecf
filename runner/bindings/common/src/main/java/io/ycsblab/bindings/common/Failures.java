package io.ycsblab.bindings.common;

import java.util.concurrent.atomic.AtomicLong;
import site.ycsb.Status;

/**
 * Maps a failed operation to a YCSB status and reports it on stderr. YCSB exits 0 even when operations failed
 * (DESIGN.md), so the first failures are printed with their cause and later ones only counted, to keep a
 * saturated run's output readable.
 */
public final class Failures {
  /** How a binding classifies a driver error; each maps to one YCSB status. */
  public enum Kind {
    /** The cluster could not serve it (no replica, overloaded, timed out). */
    UNAVAILABLE(Status.SERVICE_UNAVAILABLE),
    /** The request itself was wrong (syntax, schema, invalid value). */
    BAD_REQUEST(Status.BAD_REQUEST),
    /** Anything else. */
    ERROR(Status.ERROR);

    private final Status status;

    Kind(Status status) {
      this.status = status;
    }

    public Status status() {
      return status;
    }
  }

  private static final long PRINTED = 10;
  private final String binding;
  private final AtomicLong count = new AtomicLong();

  public Failures(String binding) {
    this.binding = binding;
  }

  public Status report(String operation, String key, Kind kind, Throwable cause) {
    long n = count.incrementAndGet();
    if (n <= PRINTED) {
      System.err.println("[" + binding + "] " + operation + " " + key + " failed (" + kind + "): " + cause);
      if (n == PRINTED) {
        System.err.println("[" + binding + "] further failures are counted, not printed");
      }
    }
    return kind.status();
  }

  public long count() {
    return count.get();
  }
}
