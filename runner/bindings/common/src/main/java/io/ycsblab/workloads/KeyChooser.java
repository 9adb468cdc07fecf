package io.ycsblab.workloads;

import java.util.concurrent.atomic.LongAdder;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.NumberGenerator;

/**
 * Picks the key number of a read, update, scan or read-modify-write over the whole long range.
 *
 * <p>YCSB 0.17.0's CoreWorkload narrows every drawn key number to an int, so past 2^31 records it picks keys that
 * were never loaded. Here the draw stays a long. As in CoreWorkload, a draw past the last acknowledged insert is
 * drawn again (a zipfian key space sized for inserts still to come), and the exponential distribution counts back
 * from the last insert. Every draw is counted: the redraw rate is what sizing the key space for a count a phase
 * never reaches costs (a time-capped phase), and the workload prints it at cleanup.
 */
final class KeyChooser {
  private final NumberGenerator generator;
  private final CounterGenerator inserted;
  private final boolean backFromLatest;
  private final LongAdder draws = new LongAdder();
  private final LongAdder keys = new LongAdder();

  KeyChooser(NumberGenerator generator, CounterGenerator inserted, boolean backFromLatest) {
    this.generator = generator;
    this.inserted = inserted;
    this.backFromLatest = backFromLatest;
  }

  long next() {
    long keynum;
    long drawn = 0;
    if (backFromLatest) {
      do {
        drawn++;
        keynum = inserted.lastValue() - generator.nextValue().longValue();
      } while (keynum < 0);
    } else {
      do {
        drawn++;
        keynum = generator.nextValue().longValue();
      } while (keynum > inserted.lastValue());
    }
    draws.add(drawn);
    keys.increment();
    return keynum;
  }

  /** Draws from the generator so far. */
  long draws() {
    return draws.sum();
  }

  /** Keys chosen so far (each took one draw or more). */
  long keys() {
    return keys.sum();
  }
}
