import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Cross-check for ycsb-lab's HDR merge: reads YCSB interval logs with HdrHistogram's own HistogramLogReader,
 * adds every interval of every log per operation (file name without .hdr) and prints JSON.
 * Usage: HdrMerge [--from S] [--to S] [--percentiles 50,95,99,99.9] FILE.hdr...
 * The window [from, to) is in seconds after each log's first interval start, as in ycsb-lab.
 */
public final class HdrMerge {
  public static void main(String[] args) throws Exception {
    double from = 0, to = Double.POSITIVE_INFINITY;
    String[] percentiles = {"50", "95", "99", "99.9"};
    List<File> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--from": from = Double.parseDouble(args[++i]); break;
        case "--to": to = Double.parseDouble(args[++i]); break;
        case "--percentiles": percentiles = args[++i].split(","); break;
        default: files.add(new File(args[i]));
      }
    }
    long started = System.nanoTime();
    Map<String, Histogram> byOperation = new TreeMap<>();
    long intervals = 0;
    for (File file : files) {
      String operation = file.getName().replaceAll("\\.hdr$", "");
      HistogramLogReader reader = new HistogramLogReader(file);
      double first = Double.NaN;
      EncodableHistogram next;
      // The no-argument form reads the range [0, Long.MAX_VALUE] in absolute time: no interval is dropped.
      while ((next = reader.nextIntervalHistogram()) != null) {
        Histogram interval = (Histogram) next;
        double startSec = interval.getStartTimeStamp() / 1000.0;
        if (Double.isNaN(first)) first = startSec;
        double rel = startSec - first;
        if (rel < from || rel >= to) continue;
        Histogram acc = byOperation.get(operation);
        if (acc == null) {
          acc = new Histogram(interval.getNumberOfSignificantValueDigits());
          byOperation.put(operation, acc);
        }
        acc.add(interval);
        intervals++;
      }
      // No close(): HistogramLogReader 2.1.4 has none; the JVM exits right after.
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    StringBuilder out = new StringBuilder();
    String library = Histogram.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    out.append("{\"library\":\"").append(new File(library).getName()).append("\",\"millis\":").append(millis);
    out.append(",\"intervals\":").append(intervals).append(",\"operations\":{");
    boolean firstOp = true;
    for (Map.Entry<String, Histogram> e : byOperation.entrySet()) {
      Histogram h = e.getValue();
      if (!firstOp) out.append(',');
      firstOp = false;
      out.append('"').append(e.getKey()).append("\":{\"count\":").append(h.getTotalCount());
      out.append(",\"mean\":").append(h.getMean()).append(",\"min\":").append(h.getMinValue());
      out.append(",\"max\":").append(h.getMaxValue()).append(",\"percentiles\":{");
      for (int i = 0; i < percentiles.length; i++) {
        if (i > 0) out.append(',');
        out.append('"').append(percentiles[i]).append("\":");
        out.append(h.getValueAtPercentile(Double.parseDouble(percentiles[i])));
      }
      out.append("}}");
    }
    out.append("}}");
    System.out.println(out);
  }
}
