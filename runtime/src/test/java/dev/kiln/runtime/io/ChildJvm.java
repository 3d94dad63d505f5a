package dev.kiln.runtime.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running one of the test mains on this JVM's class path, with the environment the
 * tests run in, whose standard output lines arrive in a queue. Closing it kills it (SIGKILL).
 */
final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Thread reader;

  private ChildJvm(Process process) {
    this.process = process;
    this.reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  lines.add(line);
                }
              } catch (IOException e) {
                lines.add("READ FAILED " + e);
              }
            },
            "child-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code main} with {@code args}; its standard error goes to this JVM's. */
  static ChildJvm start(Class<?> main, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx2g");
    command.add("-Dai.djl.offline=true");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("OMP_NUM_THREADS", "1");
    pb.environment().put("OPT_OUT_TRACKING", "true");
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    return new ChildJvm(pb.start());
  }

  /** The next line the child prints, waiting at most {@code seconds}; null if none came. */
  String nextLine(double seconds) throws InterruptedException {
    return lines.poll((long) (seconds * 1000), TimeUnit.MILLISECONDS);
  }

  /** Waits for a line equal to {@code expected}; fails if another line or none comes. */
  void expect(String expected, double seconds) throws InterruptedException {
    String line = nextLine(seconds);
    if (!expected.equals(line)) {
      throw new AssertionError("child printed " + line + ", expected " + expected);
    }
  }

  /**
   * Kills the child with SIGKILL, waits for it to be gone and for its output to be read, and
   * returns the lines it printed that no one took yet.
   */
  List<String> kill() throws InterruptedException {
    // The process handle only sends SIGKILL; Process.destroyForcibly would also close the
    // child's output stream under the reader, losing the lines it had not read yet.
    process.toHandle().destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("child " + process.pid() + " did not die within 30 s");
    }
    reader.join(10_000);
    List<String> rest = new ArrayList<>();
    lines.drainTo(rest);
    return rest;
  }

  /** The child's process id. */
  long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        kill();
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
