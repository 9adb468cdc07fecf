package io.ycsblab.bindings.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class BindingPropertiesTest {
  private static BindingProperties of(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return new BindingProperties(p);
  }

  @Test
  void blankIsUnsetAndValuesAreTrimmed() {
    BindingProperties p = of("a", "  x  ", "b", "   ");
    assertEquals("x", p.string("a", "d"));
    assertEquals("d", p.string("b", "d"));
    assertNull(p.string("c", null));
  }

  @Test
  void aTypoFailsNamingThePropertyAndTheValue() {
    BindingProperties p = of("n", "ten", "flag", "yes", "level", "QUORUMM");
    DBException e = assertThrows(DBException.class, () -> p.integer("n", 1));
    assertTrue(e.getMessage().contains("n must be an integer, got \"ten\""), e.getMessage());
    e = assertThrows(DBException.class, () -> p.bool("flag", false));
    assertTrue(e.getMessage().contains("flag must be true or false"), e.getMessage());
    e = assertThrows(DBException.class, () -> p.choice("level", "ONE", List.of("ONE", "QUORUM")));
    assertTrue(e.getMessage().contains("must be one of ONE, QUORUM, got \"QUORUMM\""), e.getMessage());
    e = assertThrows(DBException.class, () -> p.required("missing"));
    assertTrue(e.getMessage().contains("missing is required"), e.getMessage());
  }

  @Test
  void typedValuesAndFallbacks() throws DBException {
    BindingProperties p = of("n", "42", "flag", "TRUE", "hosts", " a, ,b ", "level", "quorum");
    assertEquals(42, p.integer("n", 1));
    assertEquals(7, p.integer("unset", 7));
    assertTrue(p.bool("flag", false));
    assertEquals(List.of("a", "b"), p.list("hosts", null));
    assertEquals(List.of(), p.list("none", null));
    assertEquals("QUORUM", p.choice("level", "ONE", List.of("ONE", "QUORUM")));
    assertEquals("ONE", p.choice("unset", "ONE", List.of("ONE", "QUORUM")));
  }

  @Test
  void presetIsUnsetWhenRunByHand() {
    assertEquals("unset", of().preset());
    assertEquals("durable", of(BindingProperties.PRESET, "durable").preset());
  }
}
