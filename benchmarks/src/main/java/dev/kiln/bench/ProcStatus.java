package dev.kiln.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Memory figures of this process from Linux's {@code /proc/self/status}. */
final class ProcStatus {
  private static final Path STATUS = Path.of("/proc/self/status");

  private ProcStatus() {}

  /** Peak resident set size in KiB ({@code VmHWM}), or -1 where there is no {@code /proc}. */
  static long peakRssKib() {
    return read("VmHWM");
  }

  /** Current resident set size in KiB ({@code VmRSS}), or -1 where there is no {@code /proc}. */
  static long rssKib() {
    return read("VmRSS");
  }

  private static long read(String field) {
    if (!Files.isReadable(STATUS)) {
      return -1;
    }
    try {
      return field(Files.readString(STATUS), field);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The value in KiB of {@code field} (e.g. {@code VmHWM: 123456 kB}) in a status text. */
  static long field(String status, String field) {
    for (String line : status.split("\n")) {
      if (line.startsWith(field + ":")) {
        String[] parts = line.substring(field.length() + 1).trim().split("\\s+");
        if (parts.length != 2 || !parts[1].equals("kB")) {
          throw new IllegalArgumentException("unexpected status line: " + line);
        }
        return Long.parseLong(parts[0]);
      }
    }
    throw new IllegalArgumentException("no " + field + " in status");
  }

  /**
   * Nanoseconds this process's live threads have spent runnable but waiting for a core, summed over
   * every thread's {@code schedstat} in {@code /proc/self/task} (its second field); -1 where there
   * is no {@code /proc}. The difference of two readings is the time threads waited for a core in
   * between.
   */
  static long runQueueWaitNanos() {
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return -1;
    }
    long total = 0;
    try (java.util.stream.Stream<Path> list = Files.list(tasks)) {
      for (Path t : list.toList()) {
        try {
          String[] f = Files.readString(t.resolve("schedstat")).trim().split("\\s+");
          total += Long.parseLong(f[1]);
        } catch (IOException | RuntimeException e) {
          // the thread ended while we listed them
        }
      }
    } catch (IOException e) {
      return -1;
    }
    return total;
  }
}
