package io.ycsblab.bindings.hbase;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The leader's HBase formation step (runner/boot/formation/hbase.ts), with HBase's client API instead of the hbase
 * shell: waits until the cluster has every region server live, creates the pre-split table engines/hbase/schema.ts
 * specifies (unless it exists), waits until all its regions are online, and prints one JSON line per step:
 * {"step":"servers","live":N,...}, {"step":"table",...}, {"step":"ready",...}.
 *
 * <pre>
 * HBaseSchemaTool --quorum HOST --port PORT --servers N --timeout-sec S --table T --family F --durability D
 *                 --compression C [--split KEY]...
 * </pre>
 */
public final class HBaseSchemaTool {
  private HBaseSchemaTool() {}

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    List<String> splits = new ArrayList<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--split")) {
        splits.add(args[i + 1]);
      } else {
        options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
      }
    }
    for (String required : new String[] {"quorum", "port", "servers", "timeout-sec", "table", "family", "durability", "compression"}) {
      if (!options.containsKey(required)) {
        System.err.println("hbase-schema: missing --" + required);
        System.exit(2);
      }
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", options.get("quorum"));
    conf.set("hbase.zookeeper.property.clientPort", options.get("port"));
    int expected = Integer.parseInt(options.get("servers"));
    long deadline = System.currentTimeMillis() + 1000L * Long.parseLong(options.get("timeout-sec"));
    TableName name = TableName.valueOf(options.get("table"));

    try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
      int lastLive = -1;
      for (;;) {
        ClusterMetrics metrics = admin.getClusterMetrics();
        List<String> live = new ArrayList<>();
        for (ServerName server : metrics.getLiveServerMetrics().keySet()) {
          live.add(json(server.getHostname() + ":" + server.getPort()));
        }
        if (live.size() != lastLive) {
          System.out.println("{\"step\":\"servers\",\"live\":" + live.size() + ",\"expected\":" + expected + ",\"servers\":" + live + "}");
          lastLive = live.size();
        }
        if (live.size() >= expected) {
          break;
        }
        if (System.currentTimeMillis() > deadline) {
          System.err.println("hbase-schema: " + live.size() + " of " + expected + " region servers live at the deadline");
          System.exit(1);
        }
        Thread.sleep(2000);
      }

      boolean created = false;
      if (!admin.tableExists(name)) {
        var family = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(options.get("family")))
            .setCompressionType(Compression.Algorithm.valueOf(options.get("compression")))
            .build();
        var descriptor = TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(family)
            .setDurability(Durability.valueOf(options.get("durability")))
            .build();
        byte[][] splitKeys = splits.stream().map(Bytes::toBytes).toArray(byte[][]::new);
        if (splitKeys.length == 0) {
          admin.createTable(descriptor);
        } else {
          admin.createTable(descriptor, splitKeys);
        }
        created = true;
      }
      while (!admin.isTableAvailable(name)) {
        if (System.currentTimeMillis() > deadline) {
          System.err.println("hbase-schema: " + name + " has regions offline at the deadline");
          System.exit(1);
        }
        Thread.sleep(1000);
      }
      String durability = admin.getDescriptor(name).getDurability().toString();
      int regions = admin.getRegions(name).size();
      System.out.println("{\"step\":\"table\",\"table\":" + json(name.getNameAsString()) + ",\"created\":" + created
          + ",\"regions\":" + regions + ",\"durability\":" + json(durability) + "}");
      System.out.println("{\"step\":\"ready\",\"live\":" + admin.getClusterMetrics().getLiveServerMetrics().size() + "}");
    }
  }
}
