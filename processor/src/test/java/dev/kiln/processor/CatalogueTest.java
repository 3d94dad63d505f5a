package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.ops.rule.Message;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The message catalogue against its tests and its documentation. */
class CatalogueTest {
  /** The document that lists every diagnostic id, in a paragraph starting {@code Ids:}. */
  static final Path DIAGNOSTICS_DOC = Path.of("../docs/diagnostics.md");

  /** The authoritative list: one section {@code ### Id} per diagnostic, with an example. */
  static final Path DIAGNOSTICS_LIST = Path.of("../docs/diagnostics.md");

  /** The diagnostics' ids (reasons are wordings inside other text, documented together). */
  private static Set<String> catalogue() {
    return Arrays.stream(Message.values())
        .filter(Message::isDiagnostic)
        .map(Message::id)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void everyMessageHasABadCase() {
    Set<String> tested =
        BadCases.ALL.stream()
            .map(BadCase::id)
            .filter(id -> id != null)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(catalogue(), tested);
  }

  @Test
  void theDocumentedIdsAreTheCatalogue() throws IOException {
    String doc = Files.readString(DIAGNOSTICS_DOC);
    int start = doc.indexOf("\nIds: ");
    int end = doc.indexOf("\n\n", start + 1);
    Matcher m = Pattern.compile("`([A-Za-z]+)`").matcher(doc.substring(start, end));
    Set<String> documented = new TreeSet<>();
    while (m.find()) {
      documented.add(m.group(1));
    }
    assertEquals(catalogue(), documented);
  }

  @Test
  void everyReasonIsDocumentedWithItsWording() throws IOException {
    String doc = Files.readString(DIAGNOSTICS_DOC);
    for (Message m : Message.values()) {
      if (!m.isDiagnostic()) {
        // The row: `Id` | the wording with its placeholders as %s, %d.
        String row = "| `" + m.id() + "` | ";
        int at = doc.indexOf(row);
        assertEquals(true, at >= 0, "docs/diagnostics.md has no row for reason " + m.id());
        String wording = doc.substring(at + row.length(), doc.indexOf(" |", at + row.length()));
        assertEquals(m.template().replaceAll("%[sd]", "…"), wording, m.id());
      }
    }
  }

  @Test
  void theDiagnosticsListHasASectionWithAnExamplePerId() throws IOException {
    String doc = Files.readString(DIAGNOSTICS_LIST);
    // ### Id, a blank line, **Kind.** and the rule, a blank line, the example in a code block.
    Matcher m =
        Pattern.compile(
                "(?m)^### ([A-Za-z]+)\n\n\\*\\*[A-Z][a-z]+\\.\\*\\* [^\n]+\n"
                    + "(?:[^\n]+\n)*?\n```\n\\[kiln:([A-Za-z]+)\\] ")
            .matcher(doc);
    Set<String> documented = new TreeSet<>();
    while (m.find()) {
      assertEquals(m.group(1), m.group(2), "the example under ### " + m.group(1));
      documented.add(m.group(1));
    }
    assertEquals(catalogue(), documented);
  }
}
