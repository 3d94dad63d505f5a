package dev.kiln.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A temporary folder of the benchmark's, deleted with everything in it on {@link #close()}. */
final class ScratchDir implements AutoCloseable {
  private final Path path;

  private ScratchDir(Path path) {
    this.path = path;
  }

  /** A new, empty folder in the temporary folder, its name starting with {@code prefix}. */
  static ScratchDir create(String prefix) {
    try {
      return new ScratchDir(Files.createTempDirectory(prefix));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary folder", e);
    }
  }

  Path path() {
    return path;
  }

  @Override
  public void close() {
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("bench: could not delete " + path + ": " + e.getMessage());
    }
  }
}
