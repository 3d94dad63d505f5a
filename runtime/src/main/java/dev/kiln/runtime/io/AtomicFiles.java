package dev.kiln.runtime.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replaces a file all at once: the new content goes to a temporary file in the same directory,
 * is forced to disk, and is renamed over the target, so that a crash at any moment leaves either
 * the old file or the new one, never a mix, and a failure leaves no temporary file behind.
 */
final class AtomicFiles {
  /** Writes the content of a file. */
  @FunctionalInterface
  interface Body {
    void writeTo(FileChannel channel) throws IOException;
  }

  private AtomicFiles() {}

  /**
   * Writes {@code target} from {@code body} atomically; creates missing parent directories. If
   * {@code body} throws, the exception propagates and {@code target} is untouched.
   */
  static void write(Path target, Body body) throws IOException {
    Path file = target.toAbsolutePath();
    Path dir = file.getParent();
    Files.createDirectories(dir);
    Path tmp = createTemp(dir, file.getFileName().toString());
    boolean moved = false;
    try {
      try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        body.writeTo(channel);
        channel.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      moved = true;
      syncDirectory(dir);
    } catch (IOException | RuntimeException | Error e) {
      if (!moved) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  /**
   * A new empty file {@code .<name>.<random>.tmp} in {@code dir}, made with the default
   * permissions (unlike {@link Files#createTempFile}, which makes it owner-only, a mode the
   * renamed checkpoint would keep).
   */
  private static Path createTemp(Path dir, String name) throws IOException {
    for (int attempt = 0; ; attempt++) {
      Path tmp = dir.resolve("." + name + "."
          + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
      try {
        return Files.createFile(tmp);
      } catch (FileAlreadyExistsException e) {
        if (attempt == 10) {
          throw e;
        }
      }
    }
  }

  /** Makes the rename itself durable where the platform allows forcing a directory. */
  private static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Not every platform can open a directory; the file's own content is already on disk.
    }
  }
}
