package dev.kiln.cli;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The class path of this program, for the child JVMs that {@code launch} and {@code bench} start:
 * the class loader's when the program has one of its own (under {@code mvn exec:java}, where the
 * JVM's {@code java.class.path} holds only Maven), else the JVM's.
 */
public final class ProgramClassPath {
  private ProgramClassPath() {}

  /** The class path a child JVM needs to run this program's main classes. */
  public static String get() {
    if (ProgramClassPath.class.getClassLoader() instanceof URLClassLoader loader) {
      List<String> parts = new ArrayList<>();
      for (URL url : loader.getURLs()) {
        try {
          parts.add(Path.of(url.toURI()).toString());
        } catch (URISyntaxException | IllegalArgumentException e) {
          // Not a file: not usable by a child JVM.
        }
      }
      if (!parts.isEmpty()) {
        return String.join(File.pathSeparator, parts);
      }
    }
    return System.getProperty("java.class.path");
  }
}
