package io.ycsblab.bindings.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.ycsblab.bindings.common.BindingProperties;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * A cqlsh-free way to run CQL through the same driver: schema preparation before a load, and checks against
 * the database in tests. Reads statements from stdin (each ends with a `;` at the end of a line), runs them
 * in order, waits for schema agreement after DDL, and prints every result row as one JSON object per line.
 *
 * <p>With `-p cqltool.eachnode=true` every statement runs on every node the driver knows (readiness checks
 * compare the nodes' own views) and each row gets a `_node` field with that node's address.
 *
 * <pre>java -cp ... io.ycsblab.bindings.cassandra.CqlTool -p hosts=127.0.0.1 [-p port=9042] &lt; schema.cql</pre>
 */
public final class CqlTool {
  private CqlTool() {}

  public static void main(String[] args) throws IOException {
    Properties props = new Properties();
    for (int i = 0; i < args.length; i++) {
      if ("-p".equals(args[i]) && i + 1 < args.length && args[i + 1].contains("=")) {
        String[] kv = args[++i].split("=", 2);
        props.setProperty(kv[0], kv[1]);
      } else {
        System.err.println("CqlTool: unexpected argument \"" + args[i] + "\" (expected -p name=value)");
        System.exit(2);
      }
    }
    props.putIfAbsent(CassandraSettings.REQUEST_TIMEOUT_MS, "60000");
    List<String> statements = split(readAll(System.in));
    CassandraSettings settings;
    try {
      settings = CassandraSettings.from(new BindingProperties(props));
    } catch (DBException e) {
      System.err.println("CqlTool: " + e.getMessage());
      System.exit(2);
      return;
    }
    boolean eachNode = "true".equalsIgnoreCase(props.getProperty("cqltool.eachnode"));
    int status = 0;
    try (CqlSession session = Sessions.open(settings)) {
      for (String cql : statements) {
        List<Node> targets = new ArrayList<>();
        if (eachNode) {
          targets.addAll(session.getMetadata().getNodes().values());
        } else {
          targets.add(null);
        }
        for (Node node : targets) {
          SimpleStatement statement = SimpleStatement.newInstance(cql).setConsistencyLevel(settings.readConsistency());
          String prefix = "";
          if (node != null) {
            statement = statement.setNode(node);
            String address = ((InetSocketAddress) node.getEndPoint().resolve()).getAddress().getHostAddress();
            prefix = "\"_node\":\"" + address + "\"";
          }
          ResultSet rs;
          try {
            rs = session.execute(statement);
          } catch (RuntimeException e) {
            System.err.println("CqlTool: statement failed" + (node == null ? "" : " on " + node.getEndPoint()) + ": " + cql + "\n  " + e.getMessage());
            if (!eachNode) {
              System.exit(1);
            }
            status = 1;
            continue;
          }
          if (!rs.getExecutionInfo().isSchemaInAgreement()) {
            System.err.println("CqlTool: schema not in agreement after: " + cql);
            System.exit(1);
          }
          for (Row row : rs) {
            String json = json(row);
            System.out.println(prefix.isEmpty() ? json : "{" + prefix + (json.length() > 2 ? "," : "") + json.substring(1));
          }
        }
      }
    }
    System.exit(status);
  }

  private static String readAll(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  /** Statements end with `;` at the end of a line; `--` comment lines are dropped. */
  static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("--")) {
        continue;
      }
      current.append(current.length() == 0 ? "" : "\n").append(line);
      if (trimmed.endsWith(";")) {
        String cql = current.toString().strip();
        out.add(cql.substring(0, cql.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      out.add(current.toString().strip());
    }
    return out;
  }

  private static String json(Row row) {
    StringBuilder sb = new StringBuilder("{");
    int i = 0;
    for (ColumnDefinition column : row.getColumnDefinitions()) {
      if (i > 0) {
        sb.append(',');
      }
      quote(sb, column.getName().asInternal());
      sb.append(':');
      value(sb, row.getObject(i));
      i++;
    }
    return sb.append('}').toString();
  }

  private static void value(StringBuilder sb, Object v) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      sb.append(v);
    } else if (v instanceof ByteBuffer b) {
      // Blobs as text: YCSB values are printable ASCII, and tests compare them with what was written.
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      quote(sb, new String(bytes, StandardCharsets.ISO_8859_1));
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        quote(sb, String.valueOf(e.getKey()));
        sb.append(':');
        value(sb, e.getValue());
      }
      sb.append('}');
    } else if (v instanceof Iterable<?> list) {
      sb.append('[');
      boolean first = true;
      for (Object o : list) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        value(sb, o);
      }
      sb.append(']');
    } else {
      quote(sb, v.toString());
    }
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
