package dev.kiln.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * CPU time of this process by kind of thread, from Linux's {@code /proc/self/task}: what the
 * server's own threads, MXNet's engine, the clients and the JVM (JIT, GC) each spent. A thread's
 * kind is read from its name: Kiln's server threads are {@code kiln-serve-*}, MXNet's native engine
 * threads carry the process's name ({@code java}, as does the main thread, which only waits while
 * this is measured); the clients' share is the process's total less the other kinds, so that client
 * threads that ended in between are counted too.
 */
final class ThreadCpu {
  /** The kinds of thread. */
  enum Kind {
    SERVER,
    MODEL,
    CLIENT,
    JVM
  }

  private final Map<Kind, Long> ticks;

  private ThreadCpu(Map<Kind, Long> ticks) {
    this.ticks = ticks;
  }

  /** The CPU time used so far, by kind; all zero where {@code /proc} is not there. */
  static ThreadCpu now() {
    Map<Kind, Long> t = new EnumMap<>(Kind.class);
    for (Kind k : Kind.values()) {
      t.put(k, 0L);
    }
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return new ThreadCpu(t);
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
      long known = 0;
      for (Path task : ds) {
        String name;
        long used;
        try {
          name = Files.readString(task.resolve("comm")).trim();
          used = ticks(Files.readString(task.resolve("stat")));
        } catch (IOException e) {
          continue; // the thread ended while being read
        }
        Kind k = kind(name);
        if (k != Kind.CLIENT) {
          t.merge(k, used, Long::sum);
          known += used;
        }
      }
      t.put(Kind.CLIENT, ticks(Files.readString(Path.of("/proc/self/stat"))) - known);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ThreadCpu(t);
  }

  private static Kind kind(String name) {
    if (name.startsWith("kiln-serve") || name.startsWith("prometheus")) {
      return Kind.SERVER;
    }
    if (name.equals("java")) {
      return Kind.MODEL;
    }
    if (name.startsWith("C1 ")
        || name.startsWith("C2 ")
        || name.startsWith("GC ")
        || name.startsWith("G1 ")
        || name.startsWith("VM ")
        || name.startsWith("Sweeper")
        || name.startsWith("Common-Cleaner")
        || name.startsWith("Signal")
        || name.startsWith("Finalizer")
        || name.startsWith("Reference")
        || name.startsWith("Service")
        || name.startsWith("Monitor")) {
      return Kind.JVM;
    }
    return Kind.CLIENT;
  }

  /** utime + stime of a {@code stat} line, in clock ticks (1/100 s on Linux). */
  private static long ticks(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** Milliseconds of CPU of kind {@code k} per {@code n} items from {@code before} to this. */
  double millisPer(ThreadCpu before, Kind k, int n) {
    return (ticks.get(k) - before.ticks.get(k)) * 10.0 / n;
  }
}
