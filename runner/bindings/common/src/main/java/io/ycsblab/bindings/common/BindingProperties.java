package io.ycsblab.bindings.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * Typed access to the YCSB properties a binding reads (`-p name=value`, `-P file`), with errors that name the
 * property and the accepted values, so a typo fails at init instead of running with a default.
 */
public final class BindingProperties {
  /** Set by the runner from model/presets.ts clientProperties(): recorded so every result names its preset. */
  public static final String PRESET = "ycsblab.preset";

  private final Properties properties;

  public BindingProperties(Properties properties) {
    this.properties = properties == null ? new Properties() : properties;
  }

  public String string(String name, String fallback) {
    String value = properties.getProperty(name);
    return value == null || value.isBlank() ? fallback : value.trim();
  }

  public String required(String name) throws DBException {
    String value = string(name, null);
    if (value == null) {
      throw new DBException("property " + name + " is required");
    }
    return value;
  }

  public int integer(String name, int fallback) throws DBException {
    String value = string(name, null);
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new DBException("property " + name + " must be an integer, got \"" + value + "\"");
    }
  }

  public boolean bool(String name, boolean fallback) throws DBException {
    String value = string(name, null);
    if (value == null) {
      return fallback;
    }
    switch (value.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new DBException("property " + name + " must be true or false, got \"" + value + "\"");
    }
  }

  /** A comma-separated list, blanks dropped. */
  public List<String> list(String name, String fallback) {
    List<String> out = new ArrayList<>();
    String value = string(name, fallback);
    if (value == null) {
      return out;
    }
    for (String part : value.split(",")) {
      if (!part.isBlank()) {
        out.add(part.trim());
      }
    }
    return out;
  }

  /** One of a fixed set of names (case-insensitive), returned in upper case. */
  public String choice(String name, String fallback, List<String> allowed) throws DBException {
    String value = string(name, fallback);
    if (value == null) {
      return null;
    }
    String upper = value.toUpperCase(Locale.ROOT);
    if (!allowed.contains(upper)) {
      throw new DBException("property " + name + " must be one of " + String.join(", ", allowed) + ", got \"" + value + "\"");
    }
    return upper;
  }

  /** The durability preset the runner applied (throughput, balanced, durable), or "unset" when run by hand. */
  public String preset() {
    return string(PRESET, "unset");
  }
}
