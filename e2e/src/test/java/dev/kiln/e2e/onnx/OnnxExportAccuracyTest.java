package dev.kiln.e2e.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionLstmModel;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trained sample MLP, LeNet and LSTM, exported with {@code exportOnnx}, are evaluated by ONNX
 * Runtime on the whole Fashion-MNIST test set at Kiln's own accuracy: each is trained one epoch on
 * 12,000 images, evaluated by Kiln, exported, and its file run by ONNX Runtime over the 10,000 test
 * images; the class ONNX Runtime ranks first must be Kiln's for all but a handful of images (ties
 * within float rounding), and the two accuracies agree within 0.0005.
 */
class OnnxExportAccuracyTest {
  @TempDir Path dir;

  private record Sample(String name, Supplier<KilnModel> model, long[] example) {}

  @Test
  void trainedSampleModelsKeepTheirAccuracyInOnnxRuntime() throws Exception {
    FashionMnist data = FashionMnist.load();
    Dataset train = data.train().first(12_000);
    Dataset test = data.test();
    List<Sample> samples =
        List.of(
            new Sample(
                "FashionMlp", () -> FashionMlpModel.create(Init.xavier(), 1), new long[] {784}),
            new Sample(
                "FashionLeNet",
                () -> FashionLeNetModel.create(Init.xavier(), 2),
                new long[] {1, 28, 28}),
            new Sample(
                "FashionLstm",
                () -> FashionLstmModel.create(Init.xavier(), 3),
                new long[] {28, 28}));
    for (Sample s : samples) {
      try (KilnModel m = s.model().get();
          Adam adam = new Adam(1e-3f)) {
        m.classifier().fit(DataLoader.of(train, 64).shuffled(5), 1, adam);
        Evaluation kiln = m.classifier().evaluate(test);
        Path file = dir.resolve(s.name() + ".onnx");
        m.exportOnnx(file);
        int[] kilnClasses = m.classifier().predict(test);
        int batch = 500;
        int correct = 0;
        int differ = 0;
        for (int from = 0; from < test.size(); from += batch) {
          int n = Math.min(batch, test.size() - from);
          float[] x =
              Arrays.copyOfRange(
                  test.features(), from * test.featureSize(), (from + n) * test.featureSize());
          long[] shape = new long[s.example().length + 1];
          shape[0] = n;
          System.arraycopy(s.example(), 0, shape, 1, s.example().length);
          float[] probs = OnnxExportTest.onnxRuntime(file, m, List.of(x), List.of(shape)).get(0);
          int classes = probs.length / n;
          for (int i = 0; i < n; i++) {
            int best = 0;
            for (int c = 1; c < classes; c++) {
              if (probs[i * classes + c] > probs[i * classes + best]) {
                best = c;
              }
            }
            correct += best == test.label(from + i) ? 1 : 0;
            differ += best == kilnClasses[from + i] ? 0 : 1;
          }
        }
        double ort = (double) correct / test.size();
        System.out.printf(
            "%s exported: test accuracy %.4f in Kiln, %.4f in ONNX Runtime; %d of %d images"
                + " ranked differently%n",
            s.name(), kiln.accuracy(), ort, differ, test.size());
        assertTrue(differ <= 5, s.name() + ": " + differ + " images ranked differently");
        assertEquals(kiln.accuracy(), ort, 5e-4, s.name());
      }
    }
  }
}
