package dev.kiln.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The code blocks of a Markdown document that are marked as files of an example project: a line
 * {@code <!-- file: src/main/java/demo/Train.java -->} followed, after blank lines at most, by a
 * fenced block ({@code ```java} ... {@code ```}). Tests build what a document shows from these, so
 * the document cannot drift from the code.
 */
public final class DocBlocks {
  private static final String MARK = "<!-- file: ";

  private DocBlocks() {}

  /**
   * The marked blocks of {@code doc}, by file name, in document order.
   *
   * @param doc a Markdown file
   * @return each block's text (its lines, without the fences), by the name its mark gives
   * @throws IllegalArgumentException if a mark is not followed by a fenced block, a block is not
   *     closed, or a name is marked twice
   */
  public static Map<String, String> read(Path doc) {
    List<String> lines;
    try {
      lines = Files.readAllLines(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> blocks = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (!line.startsWith(MARK) || !line.endsWith("-->")) {
        continue;
      }
      String name = line.substring(MARK.length(), line.length() - 3).strip();
      int open = i + 1;
      while (open < lines.size() && lines.get(open).isBlank()) {
        open++;
      }
      if (open == lines.size() || !lines.get(open).startsWith("```")) {
        throw new IllegalArgumentException(
            doc + ":" + (i + 1) + ": mark for " + name + " is not followed by a fenced code block");
      }
      StringBuilder text = new StringBuilder();
      int close = open + 1;
      while (close < lines.size() && !lines.get(close).startsWith("```")) {
        text.append(lines.get(close)).append('\n');
        close++;
      }
      if (close == lines.size()) {
        throw new IllegalArgumentException(
            doc + ":" + (open + 1) + ": the block for " + name + " is not closed");
      }
      if (blocks.put(name, text.toString()) != null) {
        throw new IllegalArgumentException(doc + ":" + (i + 1) + ": " + name + " is marked twice");
      }
      i = close;
    }
    return blocks;
  }

  /**
   * Writes the marked blocks of a document as files of a project, for the invoker plugin.
   *
   * @param args the document, the project directory to write into, and the file names that must be
   *     among the blocks
   * @throws IOException if a file cannot be written
   */
  public static void main(String[] args) throws IOException {
    Path doc = Path.of(args[0]);
    Path project = Path.of(args[1]);
    Map<String, String> blocks = read(doc);
    for (int i = 2; i < args.length; i++) {
      if (!blocks.containsKey(args[i])) {
        throw new IllegalArgumentException(
            doc + " marks no block for " + args[i] + "; it marks " + blocks.keySet());
      }
    }
    for (Map.Entry<String, String> block : blocks.entrySet()) {
      Path file = project.resolve(block.getKey()).normalize();
      if (!file.startsWith(project.normalize())) {
        throw new IllegalArgumentException(block.getKey() + " is outside the project");
      }
      Files.createDirectories(file.getParent());
      Files.writeString(file, block.getValue());
    }
  }
}
