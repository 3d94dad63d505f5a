package dev.kiln.differential;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import ai.djl.ndarray.NDManager;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Random models with free dimensions ({@link FreeDimModelGenerator}), compiled with the Kiln
 * processor and run at several sizes: at each of three sizes the free model's inference outputs
 * equal those of the same model written with {@code H} and {@code W} as constants of that size
 * (compiled separately, the free model's parameters copied in), and their shape is the plain-Java
 * reference's; at two sizes {@code backward} matches finite differences ({@link GradientChecker});
 * and a size the reference says a layer refuses is refused before MXNet runs ({@code
 * IllegalArgumentException}). One set of parameters serves every size.
 *
 * <p>{@code kiln.differential.freeDimModels} (default 4) models from seed {@code
 * kiln.differential.firstSeed} on.
 */
class FreeDimDifferentialTest {
  private static final double RTOL = 1e-5;

  /** The sizes each model runs at. */
  private static final int SIZES = 3;

  @TestFactory
  Stream<DynamicTest> freeDimensionModels() throws IOException {
    long first = Long.getLong("kiln.differential.firstSeed", 1L);
    int count = Integer.getInteger("kiln.differential.freeDimModels", 4);
    Path work = DifferentialTest.workDir().resolve("free-dims");
    if (Files.exists(work)) {
      try (Stream<Path> old = Files.walk(work)) {
        for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(work);
    List<String> jobs = new ArrayList<>();
    Stream<DynamicTest> models =
        LongStream.range(first, first + count)
            .mapToObj(FreeDimModelGenerator::generate)
            .map(
                d ->
                    dynamicTest(
                        d.name() + " (seed " + d.seed() + ")", () -> jobs.add(check(d, work))));
    Stream<DynamicTest> off =
        Stream.of(0)
            .map(
                x ->
                    dynamicTest(
                        "the same outputs without oneDNN", () -> withoutOneDnn(jobs, work)));
    return Stream.concat(models, off);
  }

  /**
   * Runs the saved models in a JVM with {@code MXNET_MKLDNN_ENABLED=0} (MXNet's own kernels) at the
   * sizes they ran at here, each against the outputs oneDNN gave, within the second JVM's
   * tolerances ({@link SecondJvm#OUTPUT_RTOL}).
   */
  private static void withoutOneDnn(List<String> jobs, Path work)
      throws IOException, InterruptedException {
    assertTrue(!jobs.isEmpty(), "no model got as far as being saved");
    Path list = work.resolve("jobs.txt");
    Files.write(list, jobs);
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder pb =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            work.resolve("classes") + File.pathSeparator + classPath,
            "-Dai.djl.offline=true",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            OneDnnOff.class.getName(),
            list.toString());
    pb.environment().put("MXNET_MKLDNN_ENABLED", "0");
    pb.environment().put("OMP_NUM_THREADS", "1");
    pb.environment().put("OPT_OUT_TRACKING", "true");
    Path log = work.resolve("onednn-off.log");
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    Process p = pb.start();
    boolean done = p.waitFor(120 + 20L * jobs.size(), TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String out = Files.readString(log);
    assertTrue(done, () -> "the JVM without oneDNN did not finish:\n" + out);
    assertEquals(0, p.exitValue(), out);
    assertEquals(
        SIZES * jobs.size(), out.lines().filter(l -> l.startsWith("PASSED ")).count(), out);
  }

  /**
   * The main class of the JVM without oneDNN: for each job line (model interface, checkpoint,
   * arrays file per size), loads the model from its checkpoint and compares its inference outputs
   * with oneDNN's; prints {@code PASSED} or {@code FAILED} per size, and exits with 1 on any
   * failure.
   */
  static final class OneDnnOff {
    private OneDnnOff() {}

    /** {@code args[0]}: the job list. */
    public static void main(String[] args) throws IOException {
      if (!"0".equals(System.getenv("MXNET_MKLDNN_ENABLED"))) {
        System.err.println("MXNET_MKLDNN_ENABLED is not 0; refusing to run");
        System.exit(2);
      }
      int failed = 0;
      try (NDManager nd = NDManager.newBaseManager()) {
        for (String line : Files.readAllLines(Path.of(args[0]))) {
          String[] f = line.split("\t");
          try (DiffModel m =
              DiffModel.load(OneDnnOff.class.getClassLoader(), f[0], Path.of(f[1]))) {
            for (int i = 2; i < f.length; i++) {
              Map<String, ArrayFile.Array> a = ArrayFile.read(Path.of(f[i]));
              ArrayFile.Array in = a.get("input");
              ArrayFile.Array want = a.get("output");
              Feeds.Arrays got =
                  infer(
                      m,
                      nd,
                      new Feeds.Arrays(new float[][] {in.values()}, new int[][] {in.shape()}));
              String diff =
                  java.util.Arrays.equals(want.shape(), got.shapes()[0])
                      ? Compare.close(
                          want.values(),
                          got.values()[0],
                          SecondJvm.OUTPUT_RTOL,
                          SecondJvm.OUTPUT_ATOL)
                      : "shape " + java.util.Arrays.toString(got.shapes()[0]);
              System.out.println(
                  (diff == null ? "PASSED " : "FAILED ")
                      + f[0]
                      + " "
                      + f[i]
                      + (diff == null ? "" : ": " + diff));
              failed += diff == null ? 0 : 1;
            }
          } catch (RuntimeException e) {
            failed++;
            System.out.println("FAILED " + f[0] + ": " + e);
          }
        }
      }
      System.exit(failed == 0 ? 0 : 1);
    }
  }

  /**
   * Checks model {@code d}, saves it under {@code work} and returns its job line for the JVM
   * without oneDNN.
   */
  static String check(FreeDimModelGenerator.Drawn d, Path work) {
    ModelCase free = d.free();
    String listing = free.listing();
    Random rng = new Random(d.seed());
    List<Integer> valid = d.valid();
    assertTrue(valid.size() >= 3, () -> "too few sizes to run at " + valid + "\n" + listing);
    ModelCompiler.Compiled compiled = ModelCompiler.compile(free);
    try (NDManager nd = NDManager.newBaseManager();
        DiffModel model =
            DiffModel.create(compiled.loader(), free.modelInterface(), free.init(), d.seed())) {
      model.setTraining(false);
      SymbolInfo info = SymbolInfo.parse(model.symbolJson(), model.inputNames());
      List<int[]> sizes = new ArrayList<>();
      for (int i = 0; i < SIZES; i++) {
        // The least size first: where requirements are tightest.
        int h = i == 0 ? valid.get(0) : valid.get(rng.nextInt(valid.size()));
        int w = valid.get(rng.nextInt(valid.size()));
        sizes.add(new int[] {h, w});
      }
      compiled.writeClasses(work.resolve("classes"));
      Path dir = work.resolve(d.name());
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      List<String> job =
          new ArrayList<>(List.of(free.modelInterface(), dir.resolve("model").toString()));
      for (int[] hw : sizes) {
        Feeds.Arrays in = input(rng, d.inputChannels(), hw[0], hw[1]);
        Feeds.Arrays got = infer(model, nd, in);
        Path arrays = dir.resolve("at" + hw[0] + "x" + hw[1] + ".bin");
        ArrayFile.write(
            arrays,
            Map.of(
                "input",
                new ArrayFile.Array(in.shapes()[0], in.values()[0]),
                "output",
                new ArrayFile.Array(got.shapes()[0], got.values()[0])));
        job.add(arrays.toString());
        int[] shape = {2, 2, d.outSize(hw[0]), d.outSize(hw[1])};
        String at = " at H = " + hw[0] + ", W = " + hw[1] + "\n" + listing;
        assertArrayEquals(shape, got.shapes()[0], () -> "output shape vs the reference" + at);
        ModelCase fixed = d.fixed(hw[0], hw[1]);
        ModelCompiler.Compiled fc = ModelCompiler.compile(fixed);
        try (DiffModel constant =
            DiffModel.create(fc.loader(), fixed.modelInterface(), fixed.init(), d.seed())) {
          assertEquals(model.paramNames(), constant.paramNames(), at);
          for (String p : model.paramNames()) {
            constant.setParam(p, model.param(p));
          }
          Feeds.Arrays want = infer(constant, nd, in);
          assertArrayEquals(want.shapes()[0], got.shapes()[0], at);
          String diff = Compare.close(want.values()[0], got.values()[0], RTOL, RTOL);
          assertNull(diff, () -> "free model vs constants: " + diff + at);
        }
      }
      // Saved before the gradient checks, whose training-mode passes move batch norms' averages.
      model.save(dir.resolve("model"));
      for (int[] hw : sizes.subList(0, 2)) {
        model.setTraining(false);
        Feeds.Arrays in = input(rng, d.inputChannels(), hw[0], hw[1]);
        GradientChecker.Result r =
            new GradientChecker(model, nd, info, in, rng, (int) (d.seed() % 100_000) + 1).run();
        String at = " at H = " + hw[0] + ", W = " + hw[1] + "\n" + listing;
        assertTrue(r.failures().isEmpty(), () -> "gradients: " + r.failures() + at);
        assertTrue(r.checked() > 0, () -> "no gradient compared: " + r.notes() + at);
      }
      int refused = refusedSize(d);
      if (refused > 0) {
        Feeds.Arrays in = input(rng, d.inputChannels(), refused, valid.get(0));
        IllegalArgumentException e =
            assertThrows(
                IllegalArgumentException.class,
                () -> infer(model, nd, in),
                () -> "H = " + refused + " passed, though a layer refuses it\n" + listing);
        assertTrue(e.getMessage().contains("H"), e::getMessage);
      }
      return String.join("\t", job);
    }
  }

  /** A size below the largest one looked at that some layer refuses, or 0 when there is none. */
  private static int refusedSize(FreeDimModelGenerator.Drawn d) {
    for (int h = FreeDimModelGenerator.LARGEST; h >= 1; h--) {
      if (!d.takes(h)) {
        return h;
      }
    }
    return 0;
  }

  private static Feeds.Arrays infer(DiffModel m, NDManager nd, Feeds.Arrays in) {
    m.setTraining(false);
    return Feeds.forward(m, nd, in);
  }

  private static Feeds.Arrays input(Random rng, int channels, int h, int w) {
    float[] v = new float[2 * channels * h * w];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) rng.nextGaussian();
    }
    return new Feeds.Arrays(new float[][] {v}, new int[][] {{2, channels, h, w}});
  }
}
