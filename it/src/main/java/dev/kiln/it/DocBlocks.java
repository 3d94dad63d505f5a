package dev.kiln.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
   * A fenced code block of a document.
   *
   * @param doc the document
   * @param line the line of the block's first line of code, from 1
   * @param text the block's lines, without the fences
   */
  public record Block(Path doc, int line, String text) {
    /**
     * Where the block stands in its document, for messages.
     *
     * @return e.g. {@code docs/guide.md:59}
     */
    public String where() {
      return doc + ":" + line;
    }
  }

  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern TOP_TYPE =
      Pattern.compile(
          "(?m)^(public\\s+)?((abstract|final|sealed|non-sealed)\\s+)*"
              + "(class|interface|@interface|enum|record)\\s+(\\w+)");

  /**
   * Every {@code ```java} block of {@code doc}, in document order, marked or not.
   *
   * @param doc a Markdown file
   * @return the blocks
   * @throws IllegalArgumentException if a block is not closed
   */
  public static List<Block> javaBlocks(Path doc) {
    List<String> lines;
    try {
      lines = Files.readAllLines(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!lines.get(i).strip().equals("```java")) {
        continue;
      }
      StringBuilder text = new StringBuilder();
      int close = i + 1;
      while (close < lines.size() && !lines.get(close).startsWith("```")) {
        text.append(lines.get(close)).append('\n');
        close++;
      }
      if (close == lines.size()) {
        throw new IllegalArgumentException(doc + ":" + (i + 1) + ": the java block is not closed");
      }
      blocks.add(new Block(doc, i + 2, text.toString()));
      i = close;
    }
    return blocks;
  }

  /**
   * The path a Java block is a source file at, from its package and its public top-level type (or
   * its first top-level type when none is public): {@code demo/Train.java}.
   *
   * @param block a Java block
   * @return the path, relative to a source root
   * @throws IllegalArgumentException if the block is not a whole source file (no package, no type)
   */
  public static String sourcePath(Block block) {
    Matcher pkg = PACKAGE.matcher(block.text());
    if (!pkg.find()) {
      throw new IllegalArgumentException(
          block.where()
              + ": a Java block of the docs is a whole source file, starting with its package"
              + " (package demo;) and imports");
    }
    String type = null;
    Matcher m = TOP_TYPE.matcher(block.text());
    while (m.find()) {
      if (type == null || m.group(1) != null) {
        type = m.group(5);
        if (m.group(1) != null) {
          break;
        }
      }
    }
    if (type == null) {
      throw new IllegalArgumentException(block.where() + ": the block declares no top-level type");
    }
    return pkg.group(1).replace('.', '/') + "/" + type + ".java";
  }

  /**
   * Writes the marked blocks of documents as the files of one project, for the invoker plugin.
   *
   * @param args the project directory to write into, then the documents ({@code .md}) and the file
   *     names that must be among their blocks
   * @throws IOException if a file cannot be written
   */
  public static void main(String[] args) throws IOException {
    Path project = Path.of(args[0]);
    Map<String, String> blocks = new LinkedHashMap<>();
    List<Path> docs = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].endsWith(".md")) {
        Path doc = Path.of(args[i]);
        docs.add(doc);
        for (Map.Entry<String, String> b : read(doc).entrySet()) {
          if (blocks.put(b.getKey(), b.getValue()) != null) {
            throw new IllegalArgumentException(b.getKey() + " is marked twice in " + docs);
          }
        }
      }
    }
    for (int i = 1; i < args.length; i++) {
      if (!args[i].endsWith(".md") && !blocks.containsKey(args[i])) {
        throw new IllegalArgumentException(
            docs + " mark no block for " + args[i] + "; they mark " + blocks.keySet());
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
