package dev.kiln.runtime.infer;

import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.ExecutorHandle;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Post-training int8 quantisation with MXNet's own flow, as MXNet 1.9.1's {@code
 * quantize_model_mkldnn} runs it: the float32 symbol through the {@code MKLDNN_QUANTIZE} pass (a
 * convolution fused with its batch norm, activation and sum; a fully connected layer with its
 * activation); {@code MXQuantizeSymbol} (smart mode, int8, tensor-wise) turns every such node that
 * is not excluded into its quantised form and names the outputs to calibrate; the float32 graph
 * runs the calibration batches and each of those outputs' range is measured (min/max, or the
 * entropy threshold); {@code MXSetCalibTableToQuantizedSymbol} writes the ranges into the graph;
 * the {@code MKLDNN_QUANTIZE} pass then folds requantisation into the int8 kernels. The weights
 * stay float32 arguments, which the int8 kernels quantise once, at their first pass.
 */
public final class Quantizer {
  /** MXNet's histogram size for entropy calibration ({@code _LayerHistogramCollector}). */
  static final int BINS = 8001;

  private Quantizer() {}

  /**
   * The int8 version of {@code fp32}, calibrated on the first {@code options.batches()} batches of
   * {@code data} (whose examples are {@code fp32}'s one input).
   *
   * @throws IllegalArgumentException if {@code fp32} has more than one input, or the data do not
   *     fit it, or an excluded name is no node of the graph
   */
  public static Predictor quantize(Predictor fp32, Dataset data, QuantizeOptions options) {
    if (fp32.inputs().size() != 1) {
      throw new IllegalArgumentException(
          fp32.name()
              + ": calibration data are one array of examples; the model has inputs "
              + fp32.inputs().stream().map(Port::name).toList());
    }
    Port in = fp32.inputs().get(0);
    if (in.hasFree()) {
      // Calibration measures each quantised output's range over batches of one example shape, and
      // a Dataset's examples all have one size: ranges measured at one image size are not known to
      // hold at another, so int8 is refused rather than calibrated at a size the user did not pick.
      throw new IllegalArgumentException(
          fp32.name()
              + ": cannot quantise a model with free dimensions (input '"
              + in.name()
              + "' "
              + in.shape()
              + "): int8 calibration measures ranges at one example shape; predict in float32");
    }
    if (data.featureSize() != in.exampleSize()) {
      throw new IllegalArgumentException(
          fp32.name()
              + ": calibration examples have "
              + data.featureSize()
              + " values; input '"
              + in.name()
              + "' "
              + in.shape()
              + " takes "
              + in.exampleSize());
    }
    if (in.batchAxis() != 0) {
      throw new IllegalArgumentException(
          fp32.name()
              + ": calibration batches are stacked on the first dimension; input '"
              + in.name()
              + "' has its batch at dimension "
              + in.batchAxis());
    }
    String selfAdd = SymbolAttrs.selfAdd(fp32.sourceJson());
    if (selfAdd != null) {
      throw new IllegalArgumentException(
          fp32.name()
              + ": cannot quantise a graph with a sum of a value with itself ('"
              + selfAdd
              + "'): MXNet 1.9.1's oneDNN pass crashes the process on it");
    }
    try (SymbolHandle source = SymbolHandle.fromJson(fp32.sourceJson());
        SymbolHandle fused = source.backendSubgraph("MKLDNN_QUANTIZE")) {
      List<String> excluded = new ArrayList<>(excludedNodes(fused, options.excluded()));
      // MXNet 1.9.1's quantised pooling refuses a global pool without a kernel
      // (quantized_pooling.cc:51, "only supports 2D/3D pooling"): those stay float32.
      excluded.addAll(SymbolAttrs.globalPoolsWithoutKernel(fused.toJson()));
      // No parameter is quantised offline: the weights stay float32 arguments (so a checkpoint
      // holds float32 arrays only), and the int8 kernels quantise them once, at their first pass.
      SymbolHandle.Quantized q = fused.quantize(excluded, List.of(), List.of(), "smart");
      try (SymbolHandle quantized = q.symbol()) {
        Map<String, float[]> ranges = calibrate(fp32, fused, q.calibrationNames(), data, options);
        List<String> names = new ArrayList<>(ranges.keySet());
        float[] lows = new float[names.size()];
        float[] highs = new float[names.size()];
        for (int i = 0; i < names.size(); i++) {
          lows[i] = ranges.get(names.get(i))[0];
          highs[i] = ranges.get(names.get(i))[1];
        }
        try (SymbolHandle calibrated = quantized.calibrated(names, lows, highs);
            SymbolHandle folded = calibrated.backendSubgraph("MKLDNN_QUANTIZE")) {
          for (String a : folded.arguments()) {
            if (!fp32.params().containsKey(a)
                && fp32.inputs().stream().noneMatch(p -> p.name().equals(a))) {
              throw new IllegalStateException(
                  fp32.name()
                      + ": the quantised graph takes '"
                      + a
                      + "', which Kiln has no array for");
            }
          }
          return Predictor.create(
              fp32.name() + "-int8",
              folded.toJson(),
              fp32.inputs(),
              fp32.outputs().stream().map(Port::name).toList(),
              fp32.params(),
              fp32.zeroArgs(),
              InferenceOptions.DEFAULT);
        }
      }
    }
  }

  /**
   * The nodes of the fused graph to keep in float32: every fused node that stands for a named node,
   * and every named node of the fused graph itself.
   */
  private static List<String> excludedNodes(SymbolHandle fused, List<String> names) {
    Set<String> out = new LinkedHashSet<>();
    String json = fused.toJson();
    Set<String> all = new LinkedHashSet<>(SymbolAttrs.nodeNames(json));
    for (String n : names) {
      boolean found = all.contains(n);
      if (found) {
        out.add(n);
      }
      for (FusedNode f : FusedNode.of(json)) {
        if (f.nodes().contains(n)) {
          out.add(f.name());
          found = true;
        }
      }
      if (!found) {
        throw new IllegalArgumentException(
            "cannot exclude '" + n + "' from quantisation: no node of the graph has that name");
      }
    }
    return List.copyOf(out);
  }

  /**
   * Runs the float32 {@code fused} graph on the calibration batches and returns each named output's
   * range: [min, max], or [-t, t] for the entropy threshold t.
   */
  private static Map<String, float[]> calibrate(
      Predictor fp32,
      SymbolHandle fused,
      List<String> names,
      Dataset data,
      QuantizeOptions options) {
    int batch = Math.min(options.batchSize(), data.size());
    int batches = Math.min(options.batches(), data.size() / batch);
    Port in = fp32.inputs().get(0);
    List<String> outputs = new ArrayList<>();
    List<SymbolHandle> picked = new ArrayList<>();
    try (SymbolHandle internals = fused.internals()) {
      List<String> internal = internals.outputs();
      for (String n : names) {
        int at = internal.indexOf(n);
        if (at < 0) {
          at = internal.indexOf(n + "_output");
        }
        if (at < 0) {
          throw new IllegalStateException("MXNet names no internal output '" + n + "'");
        }
        outputs.add(n);
        picked.add(internals.output(at));
      }
    }
    Map<String, float[]> minMax = new LinkedHashMap<>();
    Map<String, long[]> hist = new LinkedHashMap<>();
    try (SymbolHandle group = SymbolHandle.group(picked.toArray(SymbolHandle[]::new));
        Tensor input = Tensor.zeros(in.forBatch(batch), 0)) {
      List<String> args = group.arguments();
      List<String> aux = group.auxiliaryStates();
      List<Tensor> zeros = new ArrayList<>();
      NDArrayHandle[] argHandles = new NDArrayHandle[args.size()];
      for (int a = 0; a < args.size(); a++) {
        String name = args.get(a);
        if (name.equals(in.name())) {
          argHandles[a] = input.handle();
        } else if (fp32.zeroArgs().containsKey(name)) {
          Tensor z = Tensor.zeros(fp32.zeroArgs().get(name).withBatch(batch), 0);
          zeros.add(z);
          argHandles[a] = z.handle();
        } else {
          argHandles[a] = fp32.params().get(name).handle();
        }
      }
      NDArrayHandle[] auxHandles = new NDArrayHandle[aux.size()];
      for (int i = 0; i < auxHandles.length; i++) {
        auxHandles[i] = fp32.params().get(aux.get(i)).handle();
      }
      try (ExecutorHandle exec =
          ExecutorHandle.bind(
              group,
              0,
              argHandles,
              new NDArrayHandle[args.size()],
              new int[args.size()],
              auxHandles)) {
        NDArrayHandle[] outHandles = exec.outputs();
        List<Tensor> outs = new ArrayList<>();
        for (NDArrayHandle h : outHandles) {
          outs.add(Tensor.wrapOwned(h));
        }
        try {
          int size = data.featureSize() * batch;
          // Pass 1: min and max. Pass 2 (entropy only): a histogram over [-t, t], t = max |x|.
          for (int pass = 1;
              pass <= (options.calibration() == QuantizeOptions.Calibration.ENTROPY ? 2 : 1);
              pass++) {
            for (int b = 0; b < batches; b++) {
              float[] x = new float[size];
              System.arraycopy(data.features(), b * size, x, 0, size);
              input.copyFrom(x);
              exec.forward(false);
              for (int o = 0; o < outs.size(); o++) {
                float[] v = outs.get(o).toFloatArray();
                if (pass == 1) {
                  float[] mm =
                      minMax.computeIfAbsent(
                          outputs.get(o), k -> new float[] {Float.MAX_VALUE, -Float.MAX_VALUE});
                  for (float f : v) {
                    mm[0] = Math.min(mm[0], f);
                    mm[1] = Math.max(mm[1], f);
                  }
                } else {
                  float[] mm = minMax.get(outputs.get(o));
                  float t = Math.max(Math.abs(mm[0]), Math.abs(mm[1]));
                  long[] h = hist.computeIfAbsent(outputs.get(o), k -> new long[BINS]);
                  for (float f : v) {
                    int bin = t == 0 ? BINS / 2 : (int) ((f + t) / (2 * t) * BINS);
                    h[Math.max(0, Math.min(BINS - 1, bin))]++;
                  }
                }
              }
            }
          }
        } finally {
          outs.forEach(Tensor::close);
          zeros.forEach(Tensor::close);
        }
      }
    } finally {
      picked.forEach(SymbolHandle::close);
    }
    if (options.calibration() == QuantizeOptions.Calibration.MIN_MAX) {
      return minMax;
    }
    Map<String, float[]> out = new LinkedHashMap<>();
    for (String n : outputs) {
      float[] mm = minMax.get(n);
      float t = Math.max(Math.abs(mm[0]), Math.abs(mm[1]));
      // A non-negative output (after a ReLU) is uint8 in the int8 graph, and MXNet's kernels then
      // require a range from 0: the threshold is searched over twice the bins, as MXNet does.
      boolean nonNegative = mm[0] >= 0;
      float th = t == 0 ? 0 : entropyThreshold(hist.get(n), t, nonNegative ? 511 : 255);
      out.put(n, new float[] {nonNegative ? 0 : -th, th});
    }
    return out;
  }

  /** MXNet's {@code _contrib_calibrate_entropy} on a histogram over [-t, t]. */
  private static float entropyThreshold(long[] counts, float t, int quantizedBins) {
    float[] h = new float[counts.length];
    for (int i = 0; i < h.length; i++) {
      h[i] = counts[i];
    }
    float[] edges = new float[counts.length + 1];
    for (int i = 0; i < edges.length; i++) {
      edges[i] = -t + 2 * t * i / counts.length;
    }
    try (Tensor hist = Tensor.zeros(Shape.of(h.length), 0);
        Tensor histEdges = Tensor.zeros(Shape.of(edges.length), 0);
        Tensor threshold = Tensor.zeros(Shape.of(1), 0);
        Tensor divergence = Tensor.zeros(Shape.of(1), 0)) {
      hist.copyFrom(h);
      histEdges.copyFrom(edges);
      new PreparedOp(
              "_contrib_calibrate_entropy",
              new NDArrayHandle[] {hist.handle(), histEdges.handle()},
              new NDArrayHandle[] {threshold.handle(), divergence.handle()})
          .run(new String[] {"num_quantized_bins"}, new String[] {Integer.toString(quantizedBins)});
      return threshold.toFloatArray()[0];
    }
  }
}
