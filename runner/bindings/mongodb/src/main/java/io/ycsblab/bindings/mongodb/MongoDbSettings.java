package io.ycsblab.bindings.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.WriteConcern;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The binding's YCSB properties, checked at init: a typo fails with the property's name instead of running with a
 * default. The write concern comes from model/presets.ts for every preset.
 */
public record MongoDbSettings(String url, String database, WriteConcern writeConcern, int batchSize) {
  public static final String URL = "mongodb.url";
  public static final String WRITE_W = "mongodb.writeConcern.w";
  public static final String WRITE_J = "mongodb.writeConcern.j";
  public static final String BATCH_SIZE = "mongodb.batchsize";
  public static final String DEFAULT_URL = "mongodb://127.0.0.1:27017/ycsb";

  public static MongoDbSettings from(Properties props) throws DBException {
    String url = props.getProperty(URL, DEFAULT_URL).trim();
    ConnectionString connection;
    try {
      connection = new ConnectionString(url);
    } catch (IllegalArgumentException e) {
      throw new DBException(URL + " is not a MongoDB connection string (" + e.getMessage() + "): '" + url + "'");
    }
    String database = connection.getDatabase() != null ? connection.getDatabase() : "ycsb";
    String size = props.getProperty(BATCH_SIZE, "1").trim();
    int batchSize;
    try {
      batchSize = Integer.parseInt(size);
    } catch (NumberFormatException e) {
      throw new DBException(BATCH_SIZE + " must be a whole number >= 1, got '" + size + "'");
    }
    if (batchSize < 1) {
      throw new DBException(BATCH_SIZE + " must be a whole number >= 1, got '" + size + "'");
    }
    return new MongoDbSettings(url, database, writeConcern(props), batchSize);
  }

  /** Write concern from mongodb.writeConcern.w / .j; absent means the server default (w:1). */
  static WriteConcern writeConcern(Properties props) throws DBException {
    String w = props.getProperty(WRITE_W, "1").trim();
    String j = props.getProperty(WRITE_J, "false").trim();
    WriteConcern concern;
    if (w.matches("\\d+")) {
      concern = new WriteConcern(Integer.parseInt(w));
    } else if (w.equals("majority")) {
      concern = WriteConcern.MAJORITY;
    } else {
      throw new DBException(WRITE_W + " must be a number or 'majority', got '" + w + "'");
    }
    if (!j.equals("true") && !j.equals("false")) {
      throw new DBException(WRITE_J + " must be true or false, got '" + j + "'");
    }
    return concern.withJournal(Boolean.parseBoolean(j));
  }

  /** The URL as logged: credentials masked. */
  public String maskedUrl() {
    return url.replaceAll("//[^@/]*@", "//***@");
  }
}
