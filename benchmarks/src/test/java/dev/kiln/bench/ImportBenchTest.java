package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code bench import}'s table on a tiny run: training and inference rows with their ratios. */
class ImportBenchTest {
  @Test
  void theImportedModelGetsItsRatioToTheHandWrittenOne() throws Exception {
    String table = ImportBench.Rounds.table(2, 2, 4);
    List<String> lines = table.lines().toList();
    assertEquals(6, lines.size(), table);
    List<String> rows =
        List.of(
            "train, hand-written",
            "train, imported (lenet.onnx)",
            "infer (fused), hand-written",
            "infer (fused), imported");
    for (int i = 0; i < rows.size(); i++) {
      String line = lines.get(2 + i);
      assertTrue(line.startsWith(rows.get(i)), table);
      assertTrue(
          line.matches(i % 2 == 0 ? ".* 1$" : ".*\\d+\\.\\d\\d \\(\\d+\\.\\d\\d–\\d+\\.\\d\\d\\)$"),
          line);
    }
  }
}
