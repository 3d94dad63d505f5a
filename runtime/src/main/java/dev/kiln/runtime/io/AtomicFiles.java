package dev.kiln.runtime.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces a file all at once: the new content goes to a temporary file in the same directory, is
 * forced to disk, and is renamed over the target, so that a crash at any moment leaves either the
 * old file or the new one, never a mix, and a failure leaves no temporary file behind.
 *
 * <p>A process killed while it writes leaves its temporary file, {@code .<target
 * name>.<token>.tmp}. {@link #removeStale} finds and deletes such files. It tells a stale one from
 * one being written right now by the exclusive lock ({@link FileChannel#lock()}, an {@code fcntl}
 * lock on Linux) that every writer holds on its temporary file from just after creating it until
 * after the rename: the operating system drops the lock when its process dies, so a temporary file
 * that can be locked has no live writer. Temporary files this JVM is writing are skipped without
 * being opened (closing any channel to a file would release this JVM's lock on it).
 */
final class AtomicFiles {
  /** Writes the content of a file. */
  @FunctionalInterface
  interface Body {
    /** Writes the whole content to {@code channel}, positioned at 0. */
    void writeTo(FileChannel channel) throws IOException;
  }

  /** Something done between writing a temporary file and renaming it. */
  @FunctionalInterface
  interface BeforeRename {
    /** Runs; an exception leaves the target as it was and deletes the temporary file. */
    void run() throws IOException;
  }

  /** The temporary files this JVM is writing now (absolute paths). */
  private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();

  /**
   * {@code .<target>.<token>.tmp}. The token is a random 64-bit number in base 36, 13 digits (10 to
   * 13 in files of earlier Kiln versions, which did not pad it); it has no dot, so the target name
   * is unambiguous, and a short word such as {@code .x.params.backup.tmp} is not taken for one.
   */
  private static final Pattern TEMP = Pattern.compile("\\.(.+)\\.([0-9a-z]{10,13})\\.tmp");

  /** Digits of the token: an unsigned 64-bit number needs at most 13 in base 36. */
  private static final int TOKEN_DIGITS = 13;

  private AtomicFiles() {}

  /**
   * Writes {@code target} from {@code body} atomically; creates missing parent directories. If
   * {@code body} throws, the exception propagates and {@code target} is untouched.
   */
  static void write(Path target, Body body) throws IOException {
    write(target, body, () -> {});
  }

  /**
   * As {@link #write(Path, Body)}; {@code beforeRename} runs when the temporary file is complete
   * and on disk, just before it is renamed.
   */
  static void write(Path target, Body body, BeforeRename beforeRename) throws IOException {
    Path file = target.toAbsolutePath();
    Path dir = file.getParent();
    Files.createDirectories(dir);
    String name = file.getFileName().toString();
    for (int attempt = 0; ; attempt++) {
      Path tmp = dir.resolve("." + name + "." + token() + ".tmp");
      IN_FLIGHT.add(tmp);
      try {
        if (writeThrough(tmp, file, dir, body, beforeRename)) {
          return;
        }
      } catch (FileAlreadyExistsException e) {
        if (attempt >= 10) {
          throw e;
        }
      } finally {
        IN_FLIGHT.remove(tmp);
      }
      if (attempt >= 10) {
        throw new IOException(
            tmp
                + ": another process kept deleting this temporary file "
                + "while it was being created; expected it to stay until it was renamed to "
                + file);
      }
    }
  }

  private static String token() {
    String digits = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    return "0".repeat(TOKEN_DIGITS - digits.length()) + digits;
  }

  /**
   * Creates {@code tmp} (with the default permissions, unlike {@link Files#createTempFile}, whose
   * owner-only mode the renamed file would keep), locks it, writes it and renames it to {@code
   * file}. Returns false, having written nothing, if another process's {@link #removeStale} deleted
   * {@code tmp} between its creation and the lock: the caller retries with a new name.
   */
  private static boolean writeThrough(
      Path tmp, Path file, Path dir, Body body, BeforeRename beforeRename) throws IOException {
    boolean moved = false;
    try (FileChannel channel =
        FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      FileLock lock = lock(channel);
      try {
        if (!Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
          return false;
        }
        body.writeTo(channel);
        channel.force(true);
        beforeRename.run();
        try {
          Files.move(
              tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
        moved = true;
        syncDirectory(dir);
      } finally {
        if (lock != null) {
          lock.release();
        }
      }
      return true;
    } catch (IOException | RuntimeException | Error e) {
      if (!moved && !(e instanceof FileAlreadyExistsException)) {
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
   * An exclusive lock on the whole file, waiting for a cleaner that holds it for a moment; null
   * where the file system has no locks (some network file systems): the file is then written
   * unlocked, and {@link #removeStale}, which cannot lock it either, never deletes it.
   */
  private static FileLock lock(FileChannel channel) throws IOException {
    try {
      return channel.lock();
    } catch (FileLockInterruptionException e) {
      throw e;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Deletes {@code file} if it exists and makes the deletion durable before returning, so that a
   * later rename in the same directory cannot reach the disk without it.
   *
   * @throws IOException if the file exists and cannot be deleted
   */
  static void delete(Path file) throws IOException {
    if (Files.deleteIfExists(file)) {
      syncDirectory(file.toAbsolutePath().getParent());
    }
  }

  /**
   * The name of the file that temporary file name {@code name} was to become, or null if it is not
   * the name of one of this class's temporary files.
   */
  static String targetOf(String name) {
    Matcher m = TEMP.matcher(name);
    return m.matches() ? m.group(1) : null;
  }

  /**
   * Deletes the stale temporary files of the targets named {@code targetNames} in {@code dir}:
   * those no live process holds locked. Temporary files of other targets, those being written (by
   * this JVM or another process), files that are not regular files and anything that cannot be
   * opened for writing or locked are left alone; so is everything when {@code dir} does not exist.
   * Best effort: an I/O error skips the file and never fails the caller.
   *
   * @return the files deleted and their sizes
   */
  static List<Removed> removeStale(Path dir, Collection<String> targetNames) {
    List<Removed> removed = new ArrayList<>();
    Path abs = dir.toAbsolutePath();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(abs, ".*.tmp")) {
      for (Path p : entries) {
        String target = targetOf(p.getFileName().toString());
        if (target == null || !targetNames.contains(target) || IN_FLIGHT.contains(p)) {
          continue;
        }
        long size = removeIfUnlocked(p);
        if (size >= 0) {
          removed.add(new Removed(p, size));
        }
      }
    } catch (IOException | RuntimeException e) {
      // A directory that cannot be listed has nothing we could remove.
    }
    if (!removed.isEmpty()) {
      syncDirectory(abs);
    }
    return removed;
  }

  /** A stale temporary file that {@link #removeStale} deleted, and its size in bytes. */
  record Removed(Path file, long size) {}

  /** Deletes {@code p} if it is a regular file nobody holds locked; its size, or -1. */
  private static long removeIfUnlocked(Path p) {
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      return -1;
    }
    try (FileChannel channel =
        FileChannel.open(p, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        return -1;
      }
      if (lock == null) {
        return -1;
      }
      try {
        long size = channel.size();
        Files.delete(p);
        return size;
      } finally {
        lock.release();
      }
    } catch (NoSuchFileException e) {
      return -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Makes renames and deletions durable where the platform allows forcing a directory. */
  private static void syncDirectory(Path dir) {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    } catch (IOException e) {
      // Not every platform can open a directory; the file's own content is already on disk.
    }
  }
}
