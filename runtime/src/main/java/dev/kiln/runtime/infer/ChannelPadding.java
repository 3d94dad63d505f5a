package dev.kiln.runtime.infer;

import dev.kiln.ops.ConvKernels;
import dev.kiln.ops.Native;
import dev.kiln.ops.file.SymbolEdit;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.Shape;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Gives a GEMM convolution zero filters up to the next multiple of 16, in a symbol about to be
 * fused for inference ({@link #apply}) or in a training graph ({@link #training}), so that oneDNN
 * runs it (and the convolution that reads it) on a blocked kernel. Both pad the same convolutions
 * (one plan); they differ in where the zeros live: a predictor binds padded copies of the
 * parameters, a training graph widens the declared parameters inside the symbol.
 *
 * <p>Why: MXNet 1.9.1 runs a convolution on oneDNN's blocked kernels only where the blocked layout
 * takes the memory of the plain one ({@link ConvKernels}); a convolution of 20 or 50 filters runs
 * as a GEMM convolution at about a third of the rate a blocked one reaches on this machine (the
 * sample's LeNet at batch 64: 31 GFLOP/s, where the residual CNN's 32- and 64-filter convolutions
 * make 87, {@code bench inference}). With 32 and 64 filters the LeNet ran 1.25x faster although its
 * second convolution does twice the work.
 *
 * <p>What changes, and why the outputs do not: the convolution's {@code num_filter} becomes the
 * padded count and its weight and bias get zero rows, so the added channels hold zeros. Every node
 * between it and the layers that read it acts on each channel alone ({@code BatchNorm}, whose added
 * channels get mean 0, variance 1, scale and shift 0; {@code Activation}; {@code LeakyReLU} other
 * than the learned {@code prelu}; {@code Dropout}; {@code Pooling}; {@code Flatten}), so the added
 * channels stay finite. The layers that read them, a {@code Convolution} (one group) or a {@code
 * FullyConnected}, get zero weights for them: each added channel contributes exactly zero. The sums
 * over the real channels are the same products, added in the order the new kernel adds them (within
 * float rounding of the unpadded graph, checked by the differential suite's fused-against-unfused
 * check).
 *
 * <p>A convolution is left alone where any of this cannot be shown from the symbol: an added
 * channel would reach an output, a sum, a concatenation, a reshape or any other operator; a padded
 * weight is shared by two layers; it has groups or a layout other than channels first; or padding
 * would more than double its filters (fewer than 8: the blocked kernel would do more than twice the
 * work). Nothing is padded where oneDNN is off ({@code MXNET_MKLDNN_ENABLED=0}).
 */
public final class ChannelPadding {
  private ChannelPadding() {}

  /**
   * The system property that turns padding off for predictors, classifiers and trainers made while
   * it is {@code false}, for comparisons ({@code -Dkiln.channelPadding=false}).
   */
  public static final String SWITCH = "kiln.channelPadding";

  /**
   * A padded symbol and its parameters.
   *
   * @param json the symbol with padded {@code num_filter}s ({@code json} itself when nothing was
   *     padded)
   * @param padded new arrays, owned by the caller, for every parameter whose shape changed; the
   *     other parameters are used as they are
   * @param convolutions the padded convolutions
   */
  record Result(String json, Map<String, Tensor> padded, List<PaddedConvolution> convolutions) {
    /** {@code json} with nothing padded. */
    static Result unchanged(String json) {
      return new Result(json, Map.of(), List.of());
    }
  }

  /**
   * One padding of a parameter along {@code axis}, whose length is {@code channels} runs of {@code
   * inner} values (a convolution's weight: runs of 1; a fully connected layer's weight read after a
   * flatten: runs of height x width), to {@code to} runs; the added values are {@code fill}.
   */
  private record Pad(int axis, int channels, int to, int inner, float fill) {}

  /**
   * Pads every convolution of {@code json} that qualifies; {@code params} holds every parameter and
   * auxiliary state by name (not modified).
   */
  static Result apply(String json, Map<String, Tensor> params) {
    // Without oneDNN there are no blocked kernels to reach: padding would only add work, and
    // change the native kernel's order of summation (measured on the differential suite's
    // regression 967, whose layer norm magnifies last-bit differences).
    if ("false".equals(System.getProperty(SWITCH)) || !ConvKernels.oneDnn()) {
      return Result.unchanged(json);
    }
    SymbolEdit edit = SymbolEdit.of(json);
    SymbolFile symbol = edit.file();
    Map<String, List<Pad>> pads = new LinkedHashMap<>();
    List<PaddedConvolution> convolutions = plan(symbol, shapes(params), pads);
    if (convolutions.isEmpty()) {
      return Result.unchanged(json);
    }
    Map<String, Tensor> padded = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, List<Pad>> e : pads.entrySet()) {
        Tensor source = params.get(e.getKey());
        // An array oneDNN reordered in place is read back in the default layout.
        source.handle().toDefaultLayout();
        int[] dims = source.shape().dims();
        float[] values = source.toFloatArray();
        for (Pad p : e.getValue()) {
          values = pad(values, dims, p);
          dims[p.axis()] = p.to() * p.inner();
        }
        Tensor t = Tensor.zeros(Shape.of(dims), 0);
        padded.put(e.getKey(), t);
        t.copyFrom(values);
      }
    } catch (RuntimeException e) {
      padded.values().forEach(Tensor::close);
      throw e;
    }
    for (PaddedConvolution c : convolutions) {
      edit.setAttr(symbol.node(c.name()).id(), "num_filter", String.valueOf(c.paddedTo()));
    }
    // A variable that records its shape gets the padded one.
    for (SymbolFile.Node n : symbol.nodes()) {
      Tensor t = padded.get(n.name());
      if (t != null && n.isVariable() && n.hidden().containsKey("__shape__")) {
        edit.setAttr(n.id(), "__shape__", tuple(t.shape().dims()));
      }
    }
    return new Result(edit.toJson(), padded, List.copyOf(convolutions));
  }

  /**
   * {@code training}, a training graph, with the same convolutions padded as {@link #apply} pads
   * for inference: a new graph the caller owns ({@code training} closed), or {@code training}
   * itself where none qualifies, the switch is off or oneDNN is.
   *
   * <p>The parameters and their gradients keep their declared shapes, so the optimizer, its state,
   * data parallelism and checkpoints never see a padded array: each padded parameter stays a
   * variable of the symbol, which a {@code Concat} with constant zeros ({@code _zeros}) widens
   * where its layer reads it, so the added filters, their batch norm's scale and shift and the
   * readers' weights for them are zeros in every pass, and the gradient MXNet computes for the
   * variable is the declared part of the padded layer's (the {@code Concat}'s backward pass). A
   * dense layer that reads padded channels keeps its weight and reads the declared channels of its
   * input ({@code slice_axis}), which costs a slice of batch x columns values where a padded copy
   * of its weight would cost units x columns. A batch norm's moving mean and variance, which MXNet
   * writes itself, are read longer than declared ({@link Graph#widenedAuxStates()}): each executor
   * binds arrays of the padded length and keeps the declared ones in step. Not for a graph unrolled
   * over {@code Dim.STEPS}.
   */
  public static Graph training(Graph training) {
    if (!padsTraining(training)) {
      return training;
    }
    Map<String, Shape> shapes = shapes(training);
    SymbolEdit edit = SymbolEdit.of(training.toJson());
    SymbolFile symbol = edit.file();
    Map<String, List<Pad>> pads = new LinkedHashMap<>();
    List<PaddedConvolution> convolutions = plan(symbol, shapes, pads);
    if (convolutions.isEmpty()) {
      return training;
    }
    Map<String, Shape> widenedAux = new LinkedHashMap<>();
    List<SymbolFile.Node> nodes = symbol.nodes();
    // Each node's inputs as rewired so far (a batch norm reads two padded parameters).
    Map<Integer, List<SymbolFile.Entry>> inputs = new LinkedHashMap<>();
    for (Map.Entry<String, List<Pad>> e : pads.entrySet()) {
      SymbolFile.Node variable = symbol.node(e.getKey());
      int[] dims = shapes.get(e.getKey()).dims().clone();
      if (training.auxState(e.getKey()) != null) {
        for (Pad p : e.getValue()) {
          dims[p.axis()] = p.to() * p.inner();
        }
        widenedAux.put(e.getKey(), Shape.of(dims));
        if (variable.hidden().containsKey("__shape__")) {
          edit.setAttr(variable.id(), "__shape__", tuple(dims));
        }
        continue;
      }
      SymbolFile.Node reader = readerOf(nodes, variable.id());
      if (reader.op().equals("FullyConnected")) {
        // A dense layer keeps its weight and reads the real channels of its input: a slice of
        // batch x columns values a pass instead of a padded copy of the weight. Its input holds
        // the channels along axis 1, one value each, or, after a flatten, one run each.
        Pad p = e.getValue().get(0);
        List<SymbolFile.Entry> in =
            inputs.computeIfAbsent(reader.id(), k -> new ArrayList<>(reader.inputs()));
        int end = flattened(nodes, in.get(0).node()) ? p.channels() * p.inner() : p.channels();
        int slice =
            edit.add(
                in.get(0).node(),
                "slice_axis",
                reader.name() + "_unpadded",
                Map.of("axis", "1", "begin", "0", "end", Integer.toString(end)),
                List.of(in.get(0)));
        in.set(0, new SymbolFile.Entry(slice, 0));
        edit.setInputs(reader.id(), in);
        continue;
      }
      // The one reader of the variable (plan checked it) reads the widened value instead.
      int at = variable.id();
      for (Pad p : e.getValue()) {
        int[] added = dims.clone();
        added[p.axis()] = (p.to() - p.channels()) * p.inner();
        String base = e.getKey() + "_pad" + p.axis();
        Map<String, String> fill = new LinkedHashMap<>();
        fill.put("shape", tuple(added));
        fill.put("dtype", "float32");
        if (p.fill() != 0f) {
          fill.put("value", Float.toString(p.fill()));
        }
        int constant =
            edit.add(at, p.fill() == 0f ? "_zeros" : "_full", base + "_fill", fill, List.of());
        at =
            edit.add(
                constant,
                "Concat",
                base,
                Map.of("dim", Integer.toString(p.axis()), "num_args", "2"),
                List.of(new SymbolFile.Entry(at, 0), new SymbolFile.Entry(constant, 0)));
        dims[p.axis()] = p.to() * p.inner();
      }
      for (SymbolFile.Node n : nodes) {
        List<SymbolFile.Entry> in =
            inputs.computeIfAbsent(n.id(), k -> new ArrayList<>(n.inputs()));
        for (int slot = 0; slot < in.size(); slot++) {
          if (in.get(slot).node() == variable.id()) {
            in.set(slot, new SymbolFile.Entry(at, 0));
            edit.setInputs(n.id(), in);
          }
        }
      }
    }
    for (PaddedConvolution c : convolutions) {
      edit.setAttr(symbol.node(c.name()).id(), "num_filter", String.valueOf(c.paddedTo()));
    }
    try {
      return training.widened(edit.toJson(), widenedAux);
    } finally {
      training.close();
    }
  }

  /**
   * The convolutions {@link #training} pads in {@code graph} (a model's graph or a training graph
   * made from it): none where the switch is off, oneDNN is, or the graph is unrolled over {@code
   * Dim.STEPS}.
   */
  public static List<PaddedConvolution> trainingPadding(Graph graph) {
    if (!padsTraining(graph)) {
      return List.of();
    }
    return List.copyOf(
        plan(SymbolFile.parse(graph.toJson()), shapes(graph), new LinkedHashMap<>()));
  }

  private static boolean padsTraining(Graph graph) {
    return !"false".equals(System.getProperty(SWITCH))
        && ConvKernels.oneDnn()
        && graph.unrolledSteps() == 0;
  }

  /** The declared shape of every parameter and auxiliary state of {@code graph}. */
  private static Map<String, Shape> shapes(Graph graph) {
    Map<String, Shape> shapes = new LinkedHashMap<>();
    graph.params().forEach(p -> shapes.put(p.name(), p.shape()));
    graph.auxStates().forEach(a -> shapes.put(a.name(), a.shape()));
    return shapes;
  }

  /**
   * Whether the value of node {@code n}, reached from a padded convolution through per-channel
   * nodes (each reading its data first), went through a {@code Flatten} on the way.
   */
  private static boolean flattened(List<SymbolFile.Node> nodes, int n) {
    SymbolFile.Node node = nodes.get(n);
    while (!node.op().equals("Flatten")
        && !node.op().equals("Convolution")
        && !node.inputs().isEmpty()) {
      node = nodes.get(node.inputs().get(0).node());
    }
    return node.op().equals("Flatten");
  }

  /** The one node that reads node {@code variable}. */
  private static SymbolFile.Node readerOf(List<SymbolFile.Node> nodes, int variable) {
    for (SymbolFile.Node n : nodes) {
      for (SymbolFile.Entry e : n.inputs()) {
        if (e.node() == variable) {
          return n;
        }
      }
    }
    throw new IllegalStateException("no reader of node " + variable);
  }

  /** The names of the convolutions {@link #apply} pads, for tests. */
  static List<String> padded(String json, Map<String, Tensor> params) {
    return plan(SymbolFile.parse(json), shapes(params), new LinkedHashMap<>()).stream()
        .map(PaddedConvolution::name)
        .toList();
  }

  /**
   * Finds the convolutions to pad and records the pads of their parameters and of those of the
   * layers that read them.
   */
  private static List<PaddedConvolution> plan(
      SymbolFile symbol, Map<String, Shape> params, Map<String, List<Pad>> pads) {
    List<SymbolFile.Node> nodes = symbol.nodes();
    Set<Integer> heads = SymbolAttrs.headNodes(symbol);
    List<List<int[]>> readers = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      readers.add(new ArrayList<>());
    }
    for (SymbolFile.Node n : nodes) {
      List<SymbolFile.Entry> in = n.inputs();
      for (int slot = 0; slot < in.size(); slot++) {
        readers.get(in.get(slot).node()).add(new int[] {n.id(), slot, in.get(slot).index()});
      }
    }
    List<PaddedConvolution> convolutions = new ArrayList<>();
    for (SymbolFile.Node conv : nodes) {
      int c = conv.id();
      if (!conv.op().equals("Convolution") || !oneGroupChannelsFirst(conv)) {
        continue;
      }
      OptionalInt filters = ConvKernels.filters(conv.attrs().get("num_filter"));
      if (filters.isEmpty() || ConvKernels.blocked(filters.getAsInt())) {
        continue;
      }
      int f = filters.getAsInt();
      int to = ConvKernels.blockedFilters(f);
      if (to > 2 * f) {
        continue;
      }
      Map<String, List<Pad>> mine = new LinkedHashMap<>();
      boolean bias = !"true".equalsIgnoreCase(conv.attrs().get("no_bias"));
      if (!own(nodes, readers, params, conv, 1, mine, new Pad(0, f, to, 1, 0f))
          || bias && !own(nodes, readers, params, conv, 2, mine, new Pad(0, f, to, 1, 0f))
          || !spread(nodes, readers, heads, params, c, f, to, mine)) {
        continue;
      }
      mine.forEach((k, v) -> pads.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
      convolutions.add(new PaddedConvolution(conv.name(), f, to));
    }
    return convolutions;
  }

  /**
   * Follows the padded channels from convolution {@code c} through per-channel nodes to the layers
   * that read them, recording their parameters' pads; false where an added channel could reach
   * anything else.
   */
  private static boolean spread(
      List<SymbolFile.Node> nodes,
      List<List<int[]>> readers,
      Set<Integer> heads,
      Map<String, Shape> params,
      int c,
      int f,
      int to,
      Map<String, List<Pad>> pads) {
    Deque<Integer> frontier = new ArrayDeque<>(List.of(c));
    Set<Integer> seen = new HashSet<>(List.of(c));
    Set<Integer> flat = new HashSet<>();
    while (!frontier.isEmpty()) {
      int n = frontier.poll();
      if (heads.contains(n)) {
        return false;
      }
      for (int[] r : readers.get(n)) {
        int j = r[0];
        SymbolFile.Node reader = nodes.get(j);
        if (r[1] != 0 || r[2] != 0) {
          return false;
        }
        String op = reader.op();
        if (op.equals("FullyConnected")) {
          // After a flatten (or FullyConnected's own), channel k owns the k-th run of columns.
          Shape w = weight(nodes, reader, params);
          if (w == null
              || w.dims().length != 2
              || w.dim(1) % f != 0
              || !flat.contains(n) && "false".equalsIgnoreCase(reader.attrs().get("flatten"))) {
            return false;
          }
          int inner = w.dim(1) / f;
          if (!own(nodes, readers, params, reader, 1, pads, new Pad(1, f, to, inner, 0f))) {
            return false;
          }
          continue;
        }
        if (flat.contains(n)) {
          return false;
        }
        if (op.equals("Convolution")) {
          if (!oneGroupChannelsFirst(reader)
              || !own(nodes, readers, params, reader, 1, pads, new Pad(1, f, to, 1, 0f))) {
            return false;
          }
          continue;
        }
        if (!perChannel(reader)) {
          return false;
        }
        if (op.equals("BatchNorm")) {
          float[] fills = {0f, 0f, 0f, 1f};
          for (int slot = 1; slot <= 4; slot++) {
            if (!own(
                nodes,
                readers,
                params,
                reader,
                slot,
                pads,
                new Pad(0, f, to, 1, fills[slot - 1]))) {
              return false;
            }
          }
        }
        if (op.equals("Flatten")) {
          flat.add(j);
        }
        if (seen.add(j)) {
          frontier.add(j);
        }
      }
    }
    return true;
  }

  /**
   * Operators that act on each channel alone and keep the channels where they were, as their units
   * declare ({@link Native#keepsChannels()}).
   */
  private static boolean perChannel(SymbolFile.Node n) {
    return Native.lookup(n.op()).keepsChannelsOf(n.attrs()::get);
  }

  /**
   * Records {@code pad} for the parameter in input {@code slot} of {@code n}; false if that input
   * is not a parameter that {@code n} alone reads.
   */
  private static boolean own(
      List<SymbolFile.Node> nodes,
      List<List<int[]>> readers,
      Map<String, Shape> params,
      SymbolFile.Node n,
      int slot,
      Map<String, List<Pad>> pads,
      Pad pad) {
    if (slot >= n.inputs().size()) {
      return false;
    }
    int v = n.inputs().get(slot).node();
    SymbolFile.Node variable = nodes.get(v);
    String name = variable.name();
    Shape t = params.get(name);
    if (!variable.isVariable() || t == null || readers.get(v).size() != 1) {
      return false;
    }
    int length = t.dim(pad.axis());
    if (length != pad.channels() * pad.inner()) {
      return false;
    }
    pads.computeIfAbsent(name, k -> new ArrayList<>()).add(pad);
    return true;
  }

  private static Shape weight(
      List<SymbolFile.Node> nodes, SymbolFile.Node n, Map<String, Shape> params) {
    if (n.inputs().size() < 2) {
      return null;
    }
    return params.get(nodes.get(n.inputs().get(1).node()).name());
  }

  /** The shape of each array of {@code params}. */
  private static Map<String, Shape> shapes(Map<String, Tensor> params) {
    Map<String, Shape> shapes = new LinkedHashMap<>();
    params.forEach((k, v) -> shapes.put(k, v.shape()));
    return shapes;
  }

  /** {@code values} of shape {@code dims} with {@code p} applied. */
  static float[] pad(float[] values, int[] dims, Pad p) {
    int outer = 1;
    for (int i = 0; i < p.axis(); i++) {
      outer *= dims[i];
    }
    int rest = 1;
    for (int i = p.axis() + 1; i < dims.length; i++) {
      rest *= dims[i];
    }
    int run = p.inner() * rest;
    float[] out = new float[outer * p.to() * run];
    for (int o = 0; o < outer; o++) {
      int from = o * p.channels() * run;
      int at = o * p.to() * run;
      System.arraycopy(values, from, out, at, p.channels() * run);
      Arrays.fill(out, at + p.channels() * run, at + p.to() * run, p.fill());
    }
    return out;
  }

  /** A padding of {@code channels} runs of {@code inner} along {@code axis}, for tests. */
  static float[] pad(float[] values, int[] dims, int axis, int channels, int to, int inner) {
    return pad(values, dims, new Pad(axis, channels, to, inner, 0f));
  }

  private static boolean oneGroupChannelsFirst(SymbolFile.Node conv) {
    String groups = conv.attrs().get("num_group");
    return (groups == null || groups.trim().equals("1")) && channelsFirst(conv);
  }

  private static boolean channelsFirst(SymbolFile.Node n) {
    return Native.channelsFirst(n.attrs().get("layout"));
  }

  private static String tuple(int[] dims) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < dims.length; i++) {
      b.append(i > 0 ? ", " : "").append(dims[i]);
    }
    return b.append(dims.length == 1 ? ",)" : ")").toString();
  }
}
