package dev.kiln.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the test mains in a fresh JVM on this JVM's class path, with the environment the
 * tests run in plus {@code env}, and collects what it printed (standard output and error).
 */
public final class TestJvm {
  private TestJvm() {}

  /**
   * How the child ended.
   *
   * @param finished whether it exited within the time allowed (it was killed otherwise)
   * @param exitValue its exit status, or -1 when it did not finish
   * @param output everything it printed
   */
  public record Outcome(boolean finished, int exitValue, String output) {}

  /** Runs {@code main} and waits at most {@code seconds} for it to exit. */
  public static Outcome run(Class<?> main, Map<String, String> env, long seconds)
      throws IOException, InterruptedException {
    return run(main, env, List.of(), seconds);
  }

  /**
   * Runs {@code main} with extra JVM options (such as {@code -Dname=value}); {@code env} entries
   * whose value is null are removed from the child's environment.
   */
  public static Outcome run(
      Class<?> main, Map<String, String> env, List<String> jvmOptions, long seconds)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dai.djl.offline=true");
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("OMP_NUM_THREADS", "1");
    pb.environment().put("OPT_OUT_TRACKING", "true");
    env.forEach(
        (name, value) -> {
          if (value == null) {
            pb.environment().remove(name);
          } else {
            pb.environment().put(name, value);
          }
        });
    pb.redirectErrorStream(true);
    // Into a file, not a pipe: a child that prints more than the pipe holds (MXNet's warnings)
    // would block on a full pipe that nobody reads until it exits.
    Path log = Files.createTempFile("kiln-child", ".log");
    pb.redirectOutput(log.toFile());
    try {
      Process p = pb.start();
      boolean finished = p.waitFor(seconds, TimeUnit.SECONDS);
      if (!finished) {
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
      }
      String out = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
      return new Outcome(finished, finished ? p.exitValue() : -1, out);
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
