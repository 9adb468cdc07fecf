import java.io.File;
import java.io.PrintStream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Rewrites an interval log with this HdrHistogram's own encoding (2.1.12: V2), interval by interval,
 * so the V1 and V2 decoders can be checked on the same recordings. Usage: ReencodeLog IN.hdr OUT.hdr
 */
public final class ReencodeLog {
  public static void main(String[] args) throws Exception {
    HistogramLogReader reader = new HistogramLogReader(new File(args[0]));
    try (PrintStream out = new PrintStream(new File(args[1]))) {
      HistogramLogWriter writer = new HistogramLogWriter(out);
      writer.outputLogFormatVersion();
      writer.outputLegend();
      EncodableHistogram next;
      while ((next = reader.nextIntervalHistogram()) != null) writer.outputIntervalHistogram(next);
    }
  }
}
