package dev.kiln.runtime.mxnet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A child JVM's main for {@link OmpThreadsTest}: counts the OpenMP threads MXNet really starts.
 *
 * <p>Linux threads inherit their creator's name. The main thread takes a name of its own before it
 * loads libmxnet, so MXNet's engine workers, which it starts, and the OpenMP team threads that the
 * engine worker starts for its first parallel kernel all carry that name. The threads of that name
 * that a large {@code FullyConnected} (oneDNN, one team) adds are the team less its master, the
 * engine worker. Prints {@code SETTING <what OmpThreads reports>} and {@code TEAM <threads>}.
 */
public final class OmpThreadsProbe {
  private static final String NAME = "kiln-omp-probe";

  private OmpThreadsProbe() {}

  /** Runs the probe. */
  public static void main(String[] args) throws IOException {
    Thread.currentThread().setName(NAME);
    OmpThreads.Setting setting = OmpThreads.inUse();
    try (NDArrayHandle x = NDArrayHandle.create(new int[] {256, 1024}, 0);
        NDArrayHandle w = NDArrayHandle.create(new int[] {1024, 1024}, 0);
        NDArrayHandle y = NDArrayHandle.create(new int[] {256, 1024}, 0)) {
      x.copyFrom(new float[256 * 1024], 256 * 1024);
      w.copyFrom(new float[1024 * 1024], 1024 * 1024);
      y.waitToRead();
      x.waitToRead();
      int before = named();
      for (int i = 0; i < 3; i++) {
        Mx.invoke(
            "FullyConnected",
            new com.sun.jna.Pointer[] {x.pointer(), w.pointer()},
            new com.sun.jna.Pointer[] {y.pointer()},
            new String[] {"num_hidden", "no_bias"},
            new String[] {"1024", "True"});
        y.waitToRead();
      }
      int after = named();
      System.out.println("SETTING " + setting);
      System.out.println("TEAM " + (after - before + 1));
    }
  }

  private static int named() throws IOException {
    return (int) names().stream().filter(NAME::equals).count();
  }

  private static List<String> names() throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path t : tasks.toList()) {
        try {
          out.add(Files.readString(t.resolve("comm"), StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
          // the thread ended while we listed them
        }
      }
    }
    return out;
  }
}
