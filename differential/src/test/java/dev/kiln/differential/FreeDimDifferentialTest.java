package dev.kiln.differential;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import ai.djl.ndarray.NDManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

  @TestFactory
  Stream<DynamicTest> freeDimensionModels() {
    long first = Long.getLong("kiln.differential.firstSeed", 1L);
    int count = Integer.getInteger("kiln.differential.freeDimModels", 4);
    return LongStream.range(first, first + count)
        .mapToObj(FreeDimModelGenerator::generate)
        .map(d -> dynamicTest(d.name() + " (seed " + d.seed() + ")", () -> check(d)));
  }

  static void check(FreeDimModelGenerator.Drawn d) {
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
      for (int i = 0; i < 3; i++) {
        // The least size first: where requirements are tightest.
        int h = i == 0 ? valid.get(0) : valid.get(rng.nextInt(valid.size()));
        int w = valid.get(rng.nextInt(valid.size()));
        sizes.add(new int[] {h, w});
      }
      for (int[] hw : sizes) {
        Feeds.Arrays in = input(rng, d.inputChannels(), hw[0], hw[1]);
        Feeds.Arrays got = infer(model, nd, in);
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
