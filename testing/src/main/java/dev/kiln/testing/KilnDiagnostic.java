package dev.kiln.testing;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;

/**
 * One diagnostic of a {@link Compilation}: Kiln's or the compiler's own.
 *
 * @param kind error, warning, note
 * @param id Kiln's diagnostic id, {@code ShapeMismatch} for a message starting {@code
 *     [kiln:ShapeMismatch]}; null for a diagnostic that is not Kiln's
 * @param file the source file it points at, absolute; null when it points at none
 * @param line its line, counted from 1; -1 when it has none
 * @param message its text, the id included
 */
public record KilnDiagnostic(
    Diagnostic.Kind kind, String id, Path file, long line, String message) {
  private static final Pattern ID = Pattern.compile("^\\[kiln:([A-Za-z]+)]");

  /**
   * Returns whether this is an error.
   *
   * @return true for {@link Diagnostic.Kind#ERROR}
   */
  public boolean isError() {
    return kind == Diagnostic.Kind.ERROR;
  }

  /**
   * Returns whether this is a warning.
   *
   * @return true for a warning or a mandatory warning
   */
  public boolean isWarning() {
    return kind == Diagnostic.Kind.WARNING || kind == Diagnostic.Kind.MANDATORY_WARNING;
  }

  /** The id at the start of {@code message}, or null. */
  static String idOf(String message) {
    Matcher m = ID.matcher(message);
    return m.find() ? m.group(1) : null;
  }

  /**
   * Returns the diagnostic as javac prints it, without the source line.
   *
   * @return for example {@code Net.java:12: error: [kiln:ShapeMismatch] ...}
   */
  @Override
  public String toString() {
    String where = file == null ? "" : file.getFileName() + (line > 0 ? ":" + line : "") + ": ";
    return where + kind.toString().toLowerCase(java.util.Locale.ROOT) + ": " + message;
  }
}
