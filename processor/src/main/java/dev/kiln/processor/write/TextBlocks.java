package dev.kiln.processor.write;

import java.util.ArrayList;
import java.util.List;

/** Text as Java source: a text block, or several joined where one constant cannot hold it. */
final class TextBlocks {
  private TextBlocks() {}

  /** The longest text block written: a class file's constant string holds 65,535 bytes. */
  private static final int BLOCK = 40_000;

  /**
   * {@code text} as a text block, or for a table longer than one constant string can hold (an
   * imported file of a thousand nodes) {@code String.join("", """...""", """...""")}, split between
   * lines.
   */
  static String of(String text) {
    if (text.length() <= BLOCK) {
      return textBlock(text);
    }
    List<String> blocks = new ArrayList<>();
    StringBuilder part = new StringBuilder();
    for (String line : text.split("\n")) {
      if (part.length() + line.length() > BLOCK) {
        blocks.add(textBlock(part.toString()));
        part.setLength(0);
      }
      part.append(line).append('\n');
    }
    blocks.add(textBlock(part.toString()));
    return "String.join(\"\",\n    " + String.join(",\n    ", blocks) + ")";
  }

  /** {@code """ ... """}: {@code text} as a text block, each line indented like a statement. */
  private static String textBlock(String text) {
    StringBuilder b = new StringBuilder("\"\"\"\n");
    for (String line : text.split("\n")) {
      b.append("    ")
          .append(line.replace("\\", "\\\\").replace("\"\"\"", "\\\"\"\""))
          .append('\n');
    }
    return b.append("    \"\"\"").toString();
  }
}
