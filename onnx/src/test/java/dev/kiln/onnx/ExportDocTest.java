package dev.kiln.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/export.md's operator table names every MXNet operator the export maps, and no other. */
class ExportDocTest {
  private static final Path DOC = Path.of("../docs/export.md");

  /** The operator names in the first column of the table's rows. */
  private static Set<String> documented() throws IOException {
    Set<String> names = new TreeSet<>();
    boolean inTable = false;
    for (String line : Files.readAllLines(DOC, StandardCharsets.UTF_8)) {
      if (line.startsWith("| MXNet operator")) {
        inTable = true;
        continue;
      }
      if (inTable && !line.startsWith("|")) {
        break;
      }
      if (inTable && !line.startsWith("|---")) {
        Matcher m = Pattern.compile("`([^`]+)`").matcher(line.substring(1, line.indexOf('|', 1)));
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    return names;
  }

  @Test
  void everyExportedOperatorHasItsRowAndEveryRowIsExported() throws IOException {
    assertEquals(new TreeSet<>(OnnxExport.OPERATORS.keySet()), documented());
  }
}
