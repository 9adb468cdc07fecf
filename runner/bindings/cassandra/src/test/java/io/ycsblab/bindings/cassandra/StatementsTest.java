package io.ycsblab.bindings.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementsTest {
  @Test
  void eachOperationOnTheKeyColumnWithQuotedNames() {
    assertEquals("SELECT * FROM ycsb.usertable WHERE y_id = ?", Statements.read("ycsb", "usertable", null));
    assertEquals("SELECT field0, field1 FROM ycsb.usertable WHERE y_id = ?", Statements.read("ycsb", "usertable", List.of("field0", "field1")));
    assertEquals("SELECT * FROM ycsb.usertable WHERE token(y_id) >= token(?) LIMIT ?", Statements.scan("ycsb", "usertable", null));
    assertEquals("INSERT INTO ycsb.usertable (y_id, field0, field1) VALUES (?, ?, ?)", Statements.insert("ycsb", "usertable", List.of("field0", "field1")));
    assertEquals("UPDATE ycsb.usertable SET field0 = ? WHERE y_id = ?", Statements.update("ycsb", "usertable", List.of("field0")));
    assertEquals("DELETE FROM ycsb.usertable WHERE y_id = ?", Statements.delete("ycsb", "usertable"));
    // A name CQL would fold or misread is quoted.
    assertEquals("\"MyTable\"", Statements.id("MyTable"));
  }
}
