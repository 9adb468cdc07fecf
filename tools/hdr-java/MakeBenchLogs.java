import java.io.File;
import java.io.PrintStream;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes benchmark interval logs the way YCSB does (HistogramLogWriter, no base-time line, timestamps
 * relative to the client's start, an auto-resizing 3-digit histogram per interval): OUT/client-N/READ.hdr.
 * Usage: MakeBenchLogs OUT CLIENTS INTERVALS RECORDINGS_PER_INTERVAL
 * Latencies (us): log-normal around 500 us with a 1% slow tail around 5 ms and a GC-like pause of
 * 20-200 ms in about one interval in 300; deterministic per client (seeded).
 */
public final class MakeBenchLogs {
  public static void main(String[] args) throws Exception {
    File out = new File(args[0]);
    int clients = Integer.parseInt(args[1]);
    int intervals = Integer.parseInt(args[2]);
    int perInterval = Integer.parseInt(args[3]);
    ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
    List<Future<?>> done = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      final int client = c;
      done.add(pool.submit(() -> { writeClient(new File(out, "client-" + client), client, intervals, perInterval); return null; }));
    }
    for (Future<?> f : done) f.get();
    pool.shutdown();
  }

  static void writeClient(File dir, int client, int intervals, int perInterval) throws Exception {
    dir.mkdirs();
    SplittableRandom random = new SplittableRandom(0x5eed + client);
    try (PrintStream stream = new PrintStream(new File(dir, "READ.hdr"))) {
      HistogramLogWriter writer = new HistogramLogWriter(stream);
      writer.outputComment("[Logging for: READ]");
      writer.outputLogFormatVersion();
      writer.outputStartTime(1_700_000_000_000L + client);
      writer.outputLegend();
      long startMs = 150 + client;
      for (int i = 0; i < intervals; i++) {
        Histogram h = new Histogram(3);
        int n = perInterval / 2 + random.nextInt(perInterval + 1);
        boolean pause = random.nextInt(300) == 0;
        for (int k = 0; k < n; k++) {
          double us;
          if (pause && k % 50 == 0) us = 20_000 + random.nextDouble() * 180_000;
          else if (random.nextInt(100) == 0) us = 5_000 * Math.exp(0.6 * random.nextGaussian());
          else us = 500 * Math.exp(0.35 * random.nextGaussian());
          h.recordValue(Math.max(1, (long) us));
        }
        h.setStartTimeStamp(startMs + i * 1000L);
        h.setEndTimeStamp(startMs + (i + 1) * 1000L);
        writer.outputIntervalHistogram(h);
      }
    }
  }
}
