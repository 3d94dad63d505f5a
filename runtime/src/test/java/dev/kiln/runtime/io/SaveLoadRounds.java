package dev.kiln.runtime.io;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import com.sun.jna.Native;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.HandleCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The child JVM of {@link SaveLoadLeakTest}: a 784-128-10 model trains one step, saves its
 * checkpoint and loads it into a second model, round after round; every {@code every} rounds it
 * prints {@code sample ROUND BYTES HANDLES}: glibc's bytes in use ({@code mallinfo2}, arenas and
 * mmapped chunks) after the garbage collector and the cleaners that free native buffers have run,
 * and the live MXNet handles. Arguments: {@code ROUNDS EVERY LEAK}, where {@code LEAK} bytes are
 * allocated and never freed each round (0 in the real soak; the test's control run proves the
 * measure sees a leak of that size).
 */
final class SaveLoadRounds {
  private SaveLoadRounds() {}

  private static Graph graph() {
    GraphBuilder b = new GraphBuilder("Soak");
    Sym x = b.input(new NodeSource("x", "Soak.x()", "@Input"), Shape.of(-1, 784));
    Sym h =
        b.node(
            new NodeSource("hidden", "Soak.hidden()", "@Dense"),
            DenseOp.units(128).activation(Act.RELU),
            x);
    Sym y = b.node(new NodeSource("logits", "Soak.logits()", "@Dense"), DenseOp.units(10), h);
    return b.build(List.of(y));
  }

  /** glibc's bytes in use once collected garbage has given back what it held natively. */
  private static long inUse(CheckpointSoak.Libc libc) throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(30);
    }
    dev.kiln.runtime.mxnet.Mx.api().MXNDArrayWaitAll();
    CheckpointSoak.MallInfo m = libc.mallinfo2();
    return m.uordblks + m.hblkhd;
  }

  /** Bytes the JVM itself has malloc'd (Native Memory Tracking's categories); -1 without it. */
  static long jvmMalloc() {
    try {
      Object out =
          java.lang.management.ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                  "vmNativeMemory",
                  new Object[] {new String[] {"summary"}},
                  new String[] {String[].class.getName()});
      java.util.regex.Matcher mm =
          java.util.regex.Pattern.compile("\\(malloc=(\\d+)KB").matcher(out.toString());
      long kb = 0;
      boolean any = false;
      while (mm.find()) {
        kb += Long.parseLong(mm.group(1));
        any = true;
      }
      return any ? kb * 1024 : -1;
    } catch (javax.management.JMException e) {
      return -1;
    }
  }

  /** Runs the rounds: arguments {@code ROUNDS EVERY LEAK}. */
  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[0]);
    int every = Integer.parseInt(args[1]);
    int leak = Integer.parseInt(args[2]);
    CheckpointSoak.Libc libc = Native.load("c", CheckpointSoak.Libc.class);
    Path dir = Files.createTempDirectory(Path.of(args.length > 3 ? args[3] : "/tmp"), "kiln-leak");
    Path prefix = dir.resolve("soak");
    try (ModelRuntime m = new ModelRuntime("SoakModel", graph(), Init.xavier(), 1);
        ModelRuntime mirror = new ModelRuntime("SoakModel", graph(), Init.xavier(), 2);
        NDManager nd = NDManager.newBaseManager()) {
      m.setTraining(true);
      NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(32, 784));
      NDArray dy = nd.ones(new ai.djl.ndarray.types.Shape(32, 10));
      for (int round = 0; round <= rounds; round++) {
        if (round % every == 0) {
          System.out.printf(
              Locale.ROOT,
              "sample %d %d %d %d%n",
              round,
              inUse(libc),
              jvmMalloc(),
              HandleCounter.enabled() ? HandleCounter.live() : -1);
        }
        if (round == rounds) {
          break;
        }
        for (NDArray out : m.forward(x)) {
          out.close();
        }
        for (NDArray grad : m.backward(dy)) {
          grad.close();
        }
        m.update(1e-6f);
        m.save(prefix);
        mirror.loadParams(prefix);
        if (leak > 0) {
          Native.malloc(leak);
        }
      }
    } finally {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
      Files.delete(dir);
    }
  }
}
