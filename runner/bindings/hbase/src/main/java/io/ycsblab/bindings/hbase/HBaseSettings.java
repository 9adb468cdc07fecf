package io.ycsblab.bindings.hbase;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.hbase.client.Durability;
import site.ycsb.DBException;

/**
 * The binding's YCSB properties, checked at init: a typo fails with the property's name instead of running with a
 * default. {@code hbase.durability} comes from model/presets.ts for every preset; every {@code hbase.*} and
 * {@code zookeeper.*} property also goes into the HBase client's Configuration (ZooKeeper quorum and port).
 */
public record HBaseSettings(String family, Durability durability, boolean useBufferedMutator, Map<String, String> clientConfiguration) {
  public static final String FAMILY = "columnfamily";
  public static final String DURABILITY = "hbase.durability";
  public static final String BUFFERED_MUTATOR = "hbase.usebufferedmutator";
  /** Seeds 000 and 001 created the table with this one family. */
  public static final String DEFAULT_FAMILY = "data";

  public static HBaseSettings from(Properties props) throws DBException {
    String family = props.getProperty(FAMILY, DEFAULT_FAMILY).trim();
    if (family.isEmpty()) {
      throw new DBException(FAMILY + " must name a column family, got an empty value");
    }
    String durabilityName = props.getProperty(DURABILITY, "USE_DEFAULT").trim();
    Durability durability;
    try {
      durability = Durability.valueOf(durabilityName);
    } catch (IllegalArgumentException e) {
      throw new DBException(DURABILITY + " must be one of SKIP_WAL, ASYNC_WAL, SYNC_WAL, FSYNC_WAL, USE_DEFAULT; got '" + durabilityName + "'");
    }
    // Boolean.parseBoolean would read "yes" or "1" as false and silently write unbuffered.
    String buffered = props.getProperty(BUFFERED_MUTATOR, "false").trim();
    if (!buffered.equals("true") && !buffered.equals("false")) {
      throw new DBException(BUFFERED_MUTATOR + " must be true or false, got '" + buffered + "'");
    }
    Map<String, String> conf = new TreeMap<>();
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith("hbase.") || name.startsWith("zookeeper.")) {
        conf.put(name, props.getProperty(name));
      }
    }
    return new HBaseSettings(family, durability, Boolean.parseBoolean(buffered), conf);
  }
}
