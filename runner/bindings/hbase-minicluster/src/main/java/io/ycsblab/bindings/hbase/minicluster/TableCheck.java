package io.ycsblab.bindings.hbase.minicluster;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads a table with HBase's own client, independent of our YCSB binding, so tests can check what YCSB wrote:
 * prints one JSON object with the table durability, rows per region and, for {@code --get KEY FAMILY QUALIFIER},
 * that cell's value.
 *
 * <pre>TableCheck ZK_HOST:ZK_PORT TABLE [--get KEY FAMILY QUALIFIER]</pre>
 */
public final class TableCheck {
  private TableCheck() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    String[] zookeeper = args[0].split(":", 2);
    conf.set("hbase.zookeeper.quorum", zookeeper[0]);
    conf.set("hbase.zookeeper.property.clientPort", zookeeper[1]);
    TableName name = TableName.valueOf(args[1]);
    StringBuilder json = new StringBuilder("{");
    try (Connection connection = ConnectionFactory.createConnection(conf);
        Admin admin = connection.getAdmin();
        Table table = connection.getTable(name)) {
      TableDescriptor descriptor = admin.getDescriptor(name);
      json.append("\"durability\":\"").append(descriptor.getDurability()).append("\",\"regions\":[");
      List<RegionInfo> regions = admin.getRegions(name);
      regions.sort(RegionInfo.COMPARATOR);
      long total = 0;
      for (int i = 0; i < regions.size(); i++) {
        RegionInfo region = regions.get(i);
        Scan scan = new Scan().withStartRow(region.getStartKey()).withStopRow(region.getEndKey())
            .setFilter(new FirstKeyOnlyFilter()).setCaching(1000);
        long rows = 0;
        try (ResultScanner scanner = table.getScanner(scan)) {
          for (Result ignored : scanner) {
            rows++;
          }
        }
        total += rows;
        json.append(i == 0 ? "" : ",").append("{\"start\":\"").append(Bytes.toString(region.getStartKey()))
            .append("\",\"rows\":").append(rows).append('}');
      }
      json.append("],\"rows\":").append(total);
      if (args.length >= 6 && args[2].equals("--get")) {
        Result row = table.get(new Get(Bytes.toBytes(args[3])));
        byte[] value = row.getValue(Bytes.toBytes(args[4]), Bytes.toBytes(args[5]));
        json.append(",\"value\":").append(value == null ? "null" : "\"" + Bytes.toString(value).replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
      }
    }
    System.out.println(json.append('}'));
  }
}
