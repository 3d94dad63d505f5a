package dev.kiln.sample.imported;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.TestJvm;
import dev.kiln.runtime.exec.Parameter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Imported models compute what MXNet computes: each is compared with MXNet's own executor bound
 * from the same symbol file and the same arrays, with oneDNN on and, in a child JVM, off.
 */
class ImportAgreementTest {
  /** Largest difference allowed between Kiln's output and MXNet's. */
  private static final double TOLERANCE = 1e-5;

  @Test
  void theSymbolFilesAreWhatMxnetWrites() throws IOException {
    for (Map.Entry<String, String> f : SymbolFiles.all().entrySet()) {
      String stored = Files.readString(SymbolFiles.DIR.resolve(f.getKey()), StandardCharsets.UTF_8);
      assertEquals(f.getValue(), stored.strip(), f.getKey() + " (rewrite with SymbolFiles.main)");
    }
  }

  @Test
  void lenetAgreesWithMxnet() throws IOException {
    double diff = lenetDifference();
    assertTrue(diff <= TOLERANCE, "largest difference from MXNet's executor: " + diff);
  }

  @Test
  void lenetAgreesWithMxnetWithoutOneDnn() throws IOException, InterruptedException {
    TestJvm.Outcome child =
        TestJvm.run(ImportAgreementTest.class, Map.of("MXNET_MKLDNN_ENABLED", "0"), 120);
    assertTrue(child.finished(), child.output());
    assertEquals(0, child.exitValue(), child.output());
    assertTrue(child.output().contains("AGREE"), child.output());
  }

  /** Run without oneDNN by {@link #lenetAgreesWithMxnetWithoutOneDnn}. */
  public static void main(String[] args) throws IOException {
    double diff = lenetDifference();
    System.out.println(diff <= TOLERANCE ? "AGREE " + diff : "DIFFER " + diff);
  }

  private static double lenetDifference() throws IOException {
    try (ImportedLeNetModel model = ImportedLeNetModel.create(Init.xavier(), 7)) {
      return difference(model, "lenet-symbol.json", new int[] {3, 1, 28, 28});
    }
  }

  /**
   * The largest difference between {@code model}'s output and MXNet's for a random batch of {@code
   * shape} fed to input {@code data}, with the model's own parameters in both.
   */
  static double difference(KilnModel model, String symbol, int[] shape) throws IOException {
    Map<String, float[]> arrays = new LinkedHashMap<>();
    for (Parameter p : model.params().parameters()) {
      arrays.put(p.name(), p.get());
    }
    for (Parameter p : model.params().auxiliaryStates()) {
      arrays.put(p.name(), p.get());
    }
    int n = 1;
    for (int d : shape) {
      n *= d;
    }
    float[] x = new float[n];
    Random r = new Random(5);
    for (int i = 0; i < n; i++) {
      x[i] = (float) r.nextGaussian();
    }
    String json = Files.readString(SymbolFiles.DIR.resolve(symbol), StandardCharsets.UTF_8);
    float[] theirs = MxnetReference.forward(json, arrays, "data", shape, x);
    float[] ours;
    try (NDManager nd = NDManager.newBaseManager()) {
      NDArray in = nd.create(x, new ai.djl.ndarray.types.Shape(toLongs(shape)));
      ours = model.forward(new ai.djl.ndarray.NDList(in)).get(0).toFloatArray();
    }
    assertEquals(theirs.length, ours.length);
    double worst = 0;
    for (int i = 0; i < ours.length; i++) {
      worst = Math.max(worst, Math.abs(ours[i] - theirs[i]));
    }
    return worst;
  }

  private static long[] toLongs(int[] shape) {
    long[] out = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      out[i] = shape[i];
    }
    return out;
  }
}
