package io.ycsblab.bindings.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

class FailuresTest {
  @Test
  void eachKindMapsToItsStatusAndOnlyTheFirstTenArePrinted() {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    Failures failures = new Failures("test");
    try {
      assertEquals(Status.SERVICE_UNAVAILABLE, failures.report("read", "user1", Failures.Kind.UNAVAILABLE, new RuntimeException("timeout")));
      assertEquals(Status.BAD_REQUEST, failures.report("insert", "user2", Failures.Kind.BAD_REQUEST, new RuntimeException("syntax")));
      for (int i = 0; i < 20; i++) {
        assertEquals(Status.ERROR, failures.report("update", "user" + i, Failures.Kind.ERROR, new RuntimeException("x")));
      }
    } finally {
      System.setErr(err);
    }
    assertEquals(22, failures.count());
    String[] lines = captured.toString(StandardCharsets.UTF_8).trim().split("\n");
    // Ten failures with their cause, then one line saying the rest are only counted.
    assertEquals(11, lines.length);
    assertEquals("[test] read user1 failed (UNAVAILABLE): java.lang.RuntimeException: timeout", lines[0]);
    assertEquals("[test] further failures are counted, not printed", lines[10]);
  }
}
