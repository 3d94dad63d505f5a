package dev.kiln.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Starts {@code java} with this JVM's class path running {@code bench worker ...}, with a fixed
 * OpenMP thread count (or none, for 0), and collects the {@link BenchLine} results it prints. The
 * child's standard error is passed through; other standard-output lines are copied to standard
 * error.
 */
final class ChildJvm {
  private final String classpath;
  private final int ompThreads;
  private final long timeoutSeconds;

  ChildJvm(String classpath, int ompThreads, long timeoutSeconds) {
    this.classpath = classpath;
    this.ompThreads = ompThreads;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** Runs the worker with {@code jvmOptions} and {@code workerArgs}; returns its results. */
  List<Map<String, String>> run(List<String> jvmOptions, List<String> workerArgs) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dai.djl.offline=true");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=error");
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath, Bench.class.getName(), "worker"));
    command.addAll(workerArgs);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    if (ompThreads > 0) {
      builder.environment().put("OMP_NUM_THREADS", Integer.toString(ompThreads));
    } else {
      builder.environment().remove("OMP_NUM_THREADS");
    }
    builder.environment().put("OPT_OUT_TRACKING", "true");
    // The DJL and floor loops load libmxnet before Kiln could quiet it: "Subgraph backend MKLDNN
    // is activated" at every bind otherwise.
    builder.environment().putIfAbsent("MXNET_SUBGRAPH_VERBOSE", "0");
    List<Map<String, String>> results = new ArrayList<>();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
    // A child that does not finish in time is killed, which ends its output.
    AtomicBoolean timedOut = new AtomicBoolean();
    process
        .onExit()
        .orTimeout(timeoutSeconds, TimeUnit.SECONDS)
        .exceptionally(
            t -> {
              timedOut.set(true);
              process.destroyForcibly();
              return null;
            });
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        Map<String, String> result = BenchLine.parse(line);
        if (result != null) {
          results.add(result);
        } else {
          System.err.println("  | " + line);
        }
      }
      process.waitFor();
    } catch (IOException e) {
      process.destroyForcibly();
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    if (timedOut.get()) {
      throw new IllegalStateException(
          "benchmark worker "
              + workerArgs
              + " took more than "
              + timeoutSeconds
              + " s and was stopped");
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          "benchmark worker " + workerArgs + " exited with " + process.exitValue());
    }
    return results;
  }
}
