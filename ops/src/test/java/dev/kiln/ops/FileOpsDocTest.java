package dev.kiln.ops;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** docs/import.md's operator table names every operator the importer maps, and no other. */
class FileOpsDocTest {
  private static final Path IMPORT_DOC = Path.of("../docs/import.md");

  /** The operator names in the first column of the table's rows, current and older. */
  private static Set<String> documented() throws IOException {
    Set<String> names = new TreeSet<>();
    boolean inTable = false;
    for (String line : Files.readAllLines(IMPORT_DOC, StandardCharsets.UTF_8)) {
      if (line.startsWith("| file operator")) {
        inTable = true;
        continue;
      }
      if (inTable && !line.startsWith("|")) {
        break;
      }
      if (inTable && !line.startsWith("|---")) {
        String first = line.substring(1, line.indexOf('|', 1));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("`([^`]+)`").matcher(first);
        while (m.find()) {
          names.add(m.group(1));
        }
      }
    }
    return names;
  }

  @Test
  void everyImportedOperatorHasItsRowAndEveryRowIsImported() throws IOException {
    Set<String> documented = documented();
    List<String> mapped = new ArrayList<>(FileOps.current());
    mapped.addAll(FileOps.older());
    for (String op : mapped) {
      assertTrue(documented.contains(op), "docs/import.md's operator table lacks " + op);
    }
    for (String op : documented) {
      assertTrue(FileOps.known(op), "docs/import.md lists " + op + ", which Kiln does not import");
    }
  }
}
