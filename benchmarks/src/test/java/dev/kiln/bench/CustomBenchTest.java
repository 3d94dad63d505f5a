package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bench custom}'s table on a tiny run: a row per model and form, each with its ratio. */
class CustomBenchTest {
  @Test
  void everyModelAndFormGetsARowWithItsRatioToThePlainLeNet() {
    String table = CustomBench.Rounds.table(2, 2, 4);
    List<String> lines = table.lines().toList();
    assertEquals(8, lines.size(), table);
    assertTrue(lines.get(2).startsWith("plain LeNet 16/32"), table);
    List<String> rows =
        List.of(
            "+ scale (mul), Kiln's form",
            "+ scale (mul), MXNet's broadcast",
            "+ shift (add), Kiln's form",
            "+ shift (add), MXNet's broadcast",
            "+ divisor (div), MXNet's broadcast");
    for (int i = 0; i < rows.size(); i++) {
      String line = lines.get(3 + i);
      assertTrue(line.startsWith(rows.get(i)), table);
      assertTrue(line.matches(".*\\d+\\.\\d\\d \\(\\d+\\.\\d\\d–\\d+\\.\\d\\d\\)$"), line);
    }
  }
}
