package io.ycsblab.bindings.hbase.minicluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Starts an HBase mini cluster with the hbase-site.xml that engines/hbase/config.ts renders, creates the
 * pre-split table that engines/hbase/schema.ts specifies, writes the ZooKeeper client port to a file and
 * runs until SIGTERM.
 *
 * <pre>
 * MiniClusterMain --site FILE --port-file FILE --table T --family F --durability D --compression C
 *                 [--region-servers N] [--split KEY]...
 * </pre>
 */
public final class MiniClusterMain {
  private MiniClusterMain() {}

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
    for (String required : new String[] {"site", "port-file", "table", "family", "durability", "compression"}) {
      if (!options.containsKey(required)) {
        System.err.println("hbase-minicluster: missing --" + required);
        System.exit(2);
      }
    }

    Configuration conf = HBaseConfiguration.create();
    conf.addResource(new org.apache.hadoop.fs.Path(Path.of(options.get("site")).toUri()));
    // Everything on loopback: this cluster serves only this machine.
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    conf.set("hbase.unsafe.regionserver.hostname", "127.0.0.1");
    conf.set("hbase.master.info.port", "-1");
    conf.set("hbase.regionserver.info.port", "-1");
    System.err.println("hbase-minicluster: hbase.wal.hsync=" + conf.get("hbase.wal.hsync"));

    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    int regionServers = Integer.parseInt(options.getOrDefault("region-servers", "1"));
    util.startMiniCluster(StartMiniClusterOption.builder().numRegionServers(regionServers).numDataNodes(1).build());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        util.shutdownMiniCluster();
      } catch (IOException e) {
        System.err.println("hbase-minicluster: shutdown failed: " + e);
      }
      stopped.countDown();
    }));

    TableName table = TableName.valueOf(options.get("table"));
    try (Admin admin = util.getConnection().getAdmin()) {
      if (!admin.tableExists(table)) {
        var family = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(options.get("family")))
            .setCompressionType(Compression.Algorithm.valueOf(options.get("compression")))
            .build();
        var descriptor = TableDescriptorBuilder.newBuilder(table)
            .setColumnFamily(family)
            .setDurability(Durability.valueOf(options.get("durability")))
            .build();
        byte[][] splitKeys = splits.stream().map(Bytes::toBytes).toArray(byte[][]::new);
        if (splitKeys.length == 0) {
          admin.createTable(descriptor);
        } else {
          admin.createTable(descriptor, splitKeys);
        }
      }
      System.err.println("hbase-minicluster: table " + table + " has " + admin.getRegions(table).size() + " regions");
    }

    int port = util.getZkCluster().getClientPort();
    Path portFile = Path.of(options.get("port-file"));
    Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
    Files.writeString(tmp, port + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE);
    System.out.println("hbase-minicluster: ready, zookeeper 127.0.0.1:" + port);
    stopped.await();
  }
}
