package dev.kiln.processor.write;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the text of one generated Javadoc comment, wrapped so that every line fits in 100 columns
 * once JavaPoet has indented it and added {@code " * "}. Words are never split, a {@code {@code
 * ...}} span breaks only if it cannot fit on a line of its own, and no line starts with {@code @}
 * unless it is a block tag. Preformatted blocks are copied as they are, escaped for HTML.
 */
final class Javadoc {
  /** The column limit of generated code. */
  static final int LIMIT = 100;

  private final int width;
  private final List<String> blocks = new ArrayList<>();
  private final List<String> tags = new ArrayList<>();

  private Javadoc(int indent) {
    this.width = LIMIT - indent - " * ".length();
  }

  /** A comment on a top-level type. */
  static Javadoc type() {
    return new Javadoc(0);
  }

  /** A comment on a member of a top-level type, or on a nested type. */
  static Javadoc member() {
    return new Javadoc(2);
  }

  /** A comment on a member of a nested type. */
  static Javadoc nestedMember() {
    return new Javadoc(4);
  }

  /** Adds a paragraph; the first is the summary, later ones start with {@code <p>}. */
  Javadoc paragraph(String text) {
    blocks.add(wrap(blocks.isEmpty() ? text : "<p>" + text, ""));
    return this;
  }

  /** Adds preformatted text, one line per line, in a {@code <pre>} block. */
  Javadoc pre(String text) {
    StringBuilder b = new StringBuilder("<pre>\n");
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        b.append(escape(line)).append('\n');
      }
    }
    blocks.add(b.append("</pre>").toString());
    return this;
  }

  /** Adds {@code @param name text}. */
  Javadoc param(String name, String text) {
    tags.add(wrap("@param " + name + " " + text, "    "));
    return this;
  }

  /** Adds {@code @return text}. */
  Javadoc returns(String text) {
    tags.add(wrap("@return " + text, "    "));
    return this;
  }

  /** Adds {@code @throws type text}. */
  Javadoc throwsTag(String type, String text) {
    tags.add(wrap("@throws " + type + " " + text, "    "));
    return this;
  }

  /** The comment's text, each line ending in a newline, as {@code addJavadoc("$L", ...)} takes. */
  String build() {
    List<String> parts = new ArrayList<>(blocks);
    if (!tags.isEmpty()) {
      parts.add(String.join("\n", tags));
    }
    return String.join("\n\n", parts) + "\n";
  }

  /** {@code text} wrapped to the width, continuation lines starting with {@code hanging}. */
  private String wrap(String text, String hanging) {
    List<String> lines = new ArrayList<>();
    List<String> line = new ArrayList<>();
    for (String token : tokens(text)) {
      int limit = width - (lines.isEmpty() ? 0 : hanging.length());
      if (!line.isEmpty() && length(line) + 1 + token.length() > limit) {
        // A line that starts with @ would be a block tag: carry the word before it along.
        String carried =
            token.startsWith("@") && line.size() > 1 ? line.remove(line.size() - 1) : null;
        lines.add(String.join(" ", line));
        line = new ArrayList<>();
        if (carried != null) {
          line.add(carried);
        }
      }
      line.add(token);
    }
    if (!line.isEmpty()) {
      lines.add(String.join(" ", line));
    }
    return String.join("\n" + hanging, lines);
  }

  private static int length(List<String> words) {
    return words.stream().mapToInt(String::length).sum() + words.size() - 1;
  }

  /** Words, with each {@code {@...}} inline tag one token unless it is too long for a line. */
  private List<String> tokens(String text) {
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      if (text.charAt(i) == ' ') {
        i++;
        continue;
      }
      int end = i;
      int depth = 0;
      while (end < text.length() && (depth > 0 || text.charAt(end) != ' ')) {
        char c = text.charAt(end);
        if (c == '{') {
          depth++;
        } else if (c == '}') {
          depth = Math.max(0, depth - 1);
        }
        end++;
      }
      String token = text.substring(i, end);
      if (token.length() > width - 4 && token.contains(" ")) {
        out.addAll(List.of(token.split(" ")));
      } else {
        out.add(token);
      }
      i = end;
    }
    return out;
  }

  /** {@code line} safe inside a comment's {@code <pre>}: HTML escaped, no tag, no comment end. */
  static String escape(String line) {
    String s =
        line.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace("*/", "*&#47;");
    String trimmed = s.stripLeading();
    if (trimmed.startsWith("@")) {
      s = s.substring(0, s.length() - trimmed.length()) + "&#64;" + trimmed.substring(1);
    }
    return s;
  }
}
