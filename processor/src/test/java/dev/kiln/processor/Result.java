package dev.kiln.processor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.tools.Diagnostic;

/**
 * What one compilation gave: whether it succeeded, every diagnostic, and the sources Kiln generated
 * (by qualified name, with their text).
 *
 * @param compiler the compiler that ran
 * @param succeeded whether it compiled without errors
 * @param diagnostics every diagnostic, in the order given
 * @param generated the sources Kiln created, in order, with their text
 */
record Result(
    TestCompiler compiler,
    boolean succeeded,
    List<Diag> diagnostics,
    Map<String, String> generated) {

  /**
   * One diagnostic.
   *
   * @param kind error, warning, ...
   * @param file the file it is in, absolute; null for none
   * @param line its line, 1-based; -1 for none
   * @param message its text
   */
  record Diag(Diagnostic.Kind kind, Path file, long line, String message) {
    boolean isError() {
      return kind == Diagnostic.Kind.ERROR;
    }

    boolean isWarning() {
      return kind == Diagnostic.Kind.WARNING || kind == Diagnostic.Kind.MANDATORY_WARNING;
    }

    /** The text of the line the diagnostic is on. */
    String lineText() {
      try {
        return file == null || line < 1 ? "" : Files.readAllLines(file).get((int) line - 1);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public String toString() {
      return kind + " " + (file == null ? "" : file.getFileName() + ":" + line + ": ") + message;
    }
  }

  List<Diag> errors() {
    return diagnostics.stream().filter(Diag::isError).toList();
  }

  List<Diag> notes() {
    return diagnostics.stream().filter(d -> d.kind() == Diagnostic.Kind.NOTE).toList();
  }

  /**
   * Whether it succeeded with no diagnostic but the notes that say where a custom layer's body is
   * checked ({@code CustomBodyAtBuild}), which every model with a custom layer gets.
   */
  boolean clean() {
    return succeeded
        && diagnostics.stream()
            .allMatch(
                d ->
                    d.kind() == Diagnostic.Kind.NOTE
                        && d.message().startsWith("[kiln:CustomBodyAtBuild] "));
  }

  List<Diag> warnings() {
    return diagnostics.stream().filter(Diag::isWarning).toList();
  }

  /** The text of generated source {@code qualifiedName}. */
  String source(String qualifiedName) {
    String text = generated.get(qualifiedName);
    if (text == null) {
      throw new AssertionError(
          qualifiedName + " was not generated under " + compiler + "; " + diagnostics);
    }
    return text;
  }
}
