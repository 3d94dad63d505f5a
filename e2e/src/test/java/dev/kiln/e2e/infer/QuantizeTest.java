package dev.kiln.e2e.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.infer.FusedNode;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.infer.QuantizeOptions;
import dev.kiln.sample.models.FashionLeNetModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Post-training int8 quantisation: the flow, the exclusions, the checkpoint. */
class QuantizeTest {
  static int argmax(float[] p, int row, int classes) {
    int best = 0;
    for (int c = 1; c < classes; c++) {
      if (p[row * classes + c] > p[row * classes + best]) {
        best = c;
      }
    }
    return best;
  }

  @Test
  void anInt8LeNetAgreesWithItsFloatSelfAndRoundTripsThroughACheckpoint(@TempDir Path dir) {
    Random rng = new Random(7);
    float[] calib = PredictorTest.pixels(rng, 256);
    Dataset data = new Dataset(calib, new int[256], 784, 10);
    for (QuantizeOptions.Calibration mode : QuantizeOptions.Calibration.values()) {
      try (FashionLeNetModel m = PredictorTest.trainedLeNet(rng);
          Predictor fp32 = m.predictor();
          Predictor int8 =
              m.quantized(data, QuantizeOptions.defaults().with(mode).withBatches(4))) {
        List<FusedNode> nodes = int8.fusion();
        System.out.println(mode + " int8 LeNet: " + nodes);
        assertEquals(
            List.of(
                "quantized_sg_mkldnn_conv_bn_act_0",
                "quantized_sg_mkldnn_conv_bn_act_1",
                "quantized_sg_mkldnn_fully_connected_eltwise_0",
                "quantized_sg_mkldnn_fully_connected_1"),
            nodes.stream().map(FusedNode::name).toList());
        float[] x = PredictorTest.pixels(rng, 64);
        float[] want = fp32.predict(64, x)[0];
        float[] got = int8.predict(64, x)[0];
        int agree = 0;
        double maxDiff = 0;
        for (int i = 0; i < 64; i++) {
          agree += argmax(want, i, 10) == argmax(got, i, 10) ? 1 : 0;
        }
        for (int i = 0; i < want.length; i++) {
          maxDiff = Math.max(maxDiff, Math.abs(want[i] - got[i]));
        }
        System.out.println(mode + ": " + agree + "/64 agree, max |p - p8| " + maxDiff);
        assertTrue(maxDiff < 0.1, "probabilities within 0.1: " + maxDiff);
        int8.save(dir.resolve("lenet-int8-" + mode));
        try (Predictor loaded =
            Predictor.load(dir.resolve("lenet-int8-" + mode), InferenceOptions.DEFAULT)) {
          PredictorTest.assertClose(got, loaded.predict(64, x)[0], 1e-6, "loaded int8");
        }
      }
    }
  }

  @Test
  void excludingANodeKeepsItInFloatAndAnUnknownNameIsRefused() {
    Random rng = new Random(8);
    Dataset data = new Dataset(PredictorTest.pixels(rng, 64), new int[64], 784, 10);
    try (FashionLeNetModel m = PredictorTest.trainedLeNet(rng)) {
      QuantizeOptions keepConv1 =
          QuantizeOptions.defaults().withBatches(1).excluding(List.of("conv1"));
      try (Predictor int8 = m.quantized(data, keepConv1)) {
        List<String> names = int8.fusion().stream().map(FusedNode::name).toList();
        assertEquals("sg_mkldnn_conv_bn_act_0", names.get(0), "conv1 stays float32");
        assertTrue(names.get(1).startsWith("quantized_"), names.toString());
      }
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.quantized(data, keepConv1.excluding(List.of("conv9"))));
      assertEquals(
          "cannot exclude 'conv9' from quantisation: no node of the graph has that name",
          e.getMessage());
    }
  }
}
