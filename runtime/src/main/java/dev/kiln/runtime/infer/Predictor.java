package dev.kiln.runtime.infer;

import dev.kiln.runtime.exec.FencedArrays;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Dimensions;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.mxnet.ExecutorHandle;
import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.ShapeInference;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An inference-only model: a symbol, its own copy of the weights, and MXNet executors bound without
 * any gradient, one per batch size. It is what serving runs and what {@code model.predictor()} and
 * {@code model.quantized(...)} return; it never trains and never sees later changes to the model it
 * was made from.
 *
 * <p>With {@link InferenceOptions#fused()} (the default) the executors are bound with every {@code
 * grad_req} null, so MXNet applies its oneDNN subgraph backend ({@code MKLDNN}) when it binds them,
 * with every shape known: a convolution with the batch norm, activation and sum after it, a fully
 * connected layer with its activation, each become one oneDNN kernel; a dropout becomes nothing.
 * {@link #fusion()} reads what it did from the bound executor ({@code
 * MXExecutorGetOptimizedSymbol}). Unfused, each executor is bound with a gradient for its first
 * input, which keeps MXNet from applying the pass (its properties are inference-only); that is how
 * a model's own {@code forward} runs, and what the fused outputs are compared with. MXNet's
 * stand-alone pass ({@code MXGenBackendSubgraph}) is not used for fusion. Both crash the process
 * (SIGSEGV) on a sum of a value with itself ({@link SymbolAttrs#selfAdd}): such a graph runs
 * unfused, and {@link #fusionRefusal()} says why.
 *
 * <p>Fused oneDNN kernels fold and cache the weights (a batch norm's scale into the convolution's
 * weight) at their first pass and do not see a later change to them; a predictor's weights never
 * change, so that is safe here, and is why a model's own inference executors stay unfused.
 *
 * <p>A model with free dimensions ({@code @FreeDim}) has free entries in its ports' shapes; {@link
 * #predict(List, float[][])} takes each input's complete shape, checks it against the model's
 * {@link Dimensions} (the same {@link IllegalArgumentException}, naming the dimension, the rule and
 * the node, as a model's own {@code forward}) and binds an executor per set of input shapes, every
 * one over the one copy of the weights.
 *
 * <p>Not thread-safe beyond one call at a time: calls are serialised. Serve concurrent requests
 * with one predictor per thread ({@link #copy()}). {@link #close()} frees every native handle.
 */
public final class Predictor implements AutoCloseable {
  /**
   * The most executors (sets of input shapes: batch sizes, and free sizes) kept bound; the least
   * recently used one goes first.
   */
  static final int MAX_EXECUTORS = 16;

  /**
   * The variable attribute that records an input's shape ({@code (-1,784)}, -1 for the batch) in
   * the symbols {@link #save} writes, so that {@link #load} knows the inputs.
   */
  public static final String SHAPE_ATTR = "__kiln_shape__";

  /**
   * The variable attribute that records a model's free dimensions and their requirements on its
   * first data input, in the symbols {@link #save} writes (one line per dimension, {@code
   * dim<TAB>H<TAB>-10}, and per requirement, {@code require<TAB>H >= 12<TAB>node<TAB>why}).
   */
  public static final String DIMS_ATTR = "__kiln_dims__";

  private final String name;
  private final String sourceJson;
  private SymbolHandle symbol;
  private String json;
  private final InferenceOptions options;
  private boolean fused;
  private String fusionRefusal;
  private final List<Port> inputs;
  private final Dimensions dimensions;
  private final List<InputSpec> specs;
  private final boolean free;
  private List<Port> outputs;
  private List<String> arguments;
  private List<String> auxNames;
  private final Map<String, Tensor> params;

  /**
   * The parameters {@link ChannelPadding} padded, bound in place of their {@link #params} (which
   * stay as the model has them, for {@link #save} and {@link #copy}).
   */
  private final Map<String, Tensor> padded;

  private final List<PaddedConvolution> padding;

  private final Map<String, Shape> zeroArgs;
  private final Map<List<Shape>, Bound> bound = new LinkedHashMap<>(16, 0.75f, true);
  private boolean closed;

  /** One executor for one set of input shapes and the arrays it owns. */
  private static final class Bound {
    final Tensor[] inputs;
    final Tensor[] inputGrads;
    final Tensor[] zeros;
    final ExecutorHandle exec;
    final Tensor[] outputs;
    final List<Shape> outputShapes;

    /**
     * The inputs, with the {@link dev.kiln.runtime.mxnet.WriteFence} queued after each forward
     * pass: the next batch is written into them directly, without MXNet's synchronous copy and its
     * two trips through the engine's threads.
     */
    final FencedArrays loads;

    Bound(
        Tensor[] inputs,
        Tensor[] inputGrads,
        Tensor[] zeros,
        ExecutorHandle exec,
        Tensor[] outputs,
        int predicted) {
      this.inputs = inputs;
      this.inputGrads = inputGrads;
      this.zeros = zeros;
      this.exec = exec;
      this.outputs = outputs;
      List<Shape> shapes = new ArrayList<>();
      for (int o = 0; o < predicted; o++) {
        shapes.add(outputs[o].shape());
      }
      this.outputShapes = List.copyOf(shapes);
      this.loads = new FencedArrays(inputs);
    }

    void close() {
      exec.close();
      closeAll(outputs);
      closeAll(inputs);
      closeAll(inputGrads);
      closeAll(zeros);
    }
  }

  /**
   * A predictor of symbol {@code symbolJson} (whose first {@code outputs.size()} outputs are the
   * ones predicted; any further ones, such as a recurrent layer's final state, are dropped) over
   * copies of {@code params} (every argument that is not an input, by name, and every auxiliary
   * state). Arguments in {@code zeroArgs} (e.g. a recurrent layer's initial state) are bound to
   * zeros of their shape, {@link Shape#BATCH} filled per batch.
   *
   * @param name the model's name, for messages
   * @param inputs the symbol's data inputs, by variable name
   * @param outputs the names of the outputs to predict, in the symbol's output order
   * @throws IllegalArgumentException if an argument has no array, or an array does not fit
   */
  public static Predictor create(
      String name,
      String symbolJson,
      List<Port> inputs,
      List<String> outputs,
      Map<String, Tensor> params,
      Map<String, Shape> zeroArgs,
      InferenceOptions options) {
    return create(name, symbolJson, inputs, outputs, params, zeroArgs, Dimensions.NONE, options);
  }

  /**
   * As {@link #create(String, String, List, List, Map, Map, InferenceOptions)}, for a model with
   * free dimensions: {@code dimensions} names every placeholder in the inputs' shapes and says what
   * the model needs of their sizes ({@code Graph.dimensions()}).
   *
   * @throws IllegalArgumentException also if an input's free dimension is not one of {@code
   *     dimensions}
   */
  public static Predictor create(
      String name,
      String symbolJson,
      List<Port> inputs,
      List<String> outputs,
      Map<String, Tensor> params,
      Map<String, Shape> zeroArgs,
      Dimensions dimensions,
      InferenceOptions options) {
    for (Port p : inputs) {
      for (int d : p.shape().dims()) {
        if (Shape.isFree(d) && dimensions.nameOf(d) == null) {
          throw new IllegalArgumentException(
              name
                  + ": input '"
                  + p.name()
                  + "' of shape "
                  + p.shape()
                  + " has free dimension "
                  + d
                  + ", which none of the model's dimensions "
                  + dimensions.dims()
                  + " is");
        }
      }
    }
    return new Predictor(name, symbolJson, inputs, outputs, params, zeroArgs, dimensions, options);
  }

  private Predictor(
      String name,
      String sourceJson,
      List<Port> inputs,
      List<String> outputNames,
      Map<String, Tensor> source,
      Map<String, Shape> zeroArgs,
      Dimensions dimensions,
      InferenceOptions options) {
    this.name = name;
    this.sourceJson = sourceJson;
    this.options = options;
    this.inputs = List.copyOf(inputs);
    this.dimensions = dimensions;
    this.specs = this.inputs.stream().map(p -> new InputSpec(p.name(), p.shape())).toList();
    this.free = this.inputs.stream().anyMatch(Port::hasFree);
    this.zeroArgs = Map.copyOf(zeroArgs);
    this.params = new LinkedHashMap<>();
    // Fused, a GEMM convolution gets zero filters up to a multiple of 16 (ChannelPadding), and a
    // ReLU between a GEMM convolution left as it was and a max pooling moves after the pooling
    // (ReluAfterPool): the same outputs, on oneDNN's faster kernels.
    ChannelPadding.Result padding =
        options.fused()
            ? ChannelPadding.apply(sourceJson, source)
            : ChannelPadding.Result.unchanged(sourceJson);
    this.padded = padding.padded();
    this.padding = padding.convolutions();
    SymbolHandle parsed;
    try {
      parsed =
          SymbolHandle.fromJson(options.fused() ? ReluAfterPool.apply(padding.json()) : sourceJson);
    } catch (RuntimeException e) {
      closeAll(padded.values().toArray(Tensor[]::new));
      throw e;
    }
    try {
      build(parsed, source, outputNames);
    } catch (RuntimeException e) {
      closeAll(params.values().toArray(Tensor[]::new));
      closeAll(padded.values().toArray(Tensor[]::new));
      parsed.close();
      throw e;
    }
    this.fused = options.fused();
    String selfAdd = fused ? SymbolAttrs.selfAdd(sourceJson) : null;
    if (selfAdd != null) {
      this.fused = false;
      this.fusionRefusal =
          "MXNet 1.9.1's oneDNN pass crashes the process on a sum of a value with itself ('"
              + selfAdd
              + "'; fully connected + sum fusion): running unfused";
    }
    if (fused) {
      // MXNet fuses at bind, with the shapes known; binding batch 1 (at the least free sizes) now
      // finds out whether it can (and what it fused) before the first call.
      List<Shape> one = shapesAt(1, dimensions.probe());
      try {
        Bound first = bind(one);
        bound.put(one, first);
        try (SymbolHandle optimized = first.exec.optimizedSymbol()) {
          this.json = optimized.toJson();
        }
        first.exec.forward(false);
        first.outputs[0].toFloatArray();
      } catch (MxException | IllegalArgumentException e) {
        Bound b = bound.remove(one);
        if (b != null) {
          b.close();
        }
        this.json = symbol.toJson();
        // MXNet's pass makes graphs it cannot run for some models (measured on the differential
        // suite's seeds 14, 17 and 33: a fused convolution + sum whose inputs are out of order, a
        // dropout removed into a dangling variable, a fused dense layer that loses an input):
        // those run unfused, and fusionRefusal() says why.
        this.fused = false;
        this.fusionRefusal = e.getMessage();
      }
    }
  }

  /** Binds nothing yet: takes {@code sym}, copies the weights it needs, infers the outputs. */
  private void build(SymbolHandle sym, Map<String, Tensor> source, List<String> outputNames) {
    this.symbol = sym;
    this.json = sym.toJson();
    this.arguments = sym.arguments();
    this.auxNames = sym.auxiliaryStates();
    for (String a : arguments) {
      if (isInput(a) || zeroArgs.containsKey(a)) {
        continue;
      }
      params.put(a, copyOf(a, source.get(a)));
    }
    for (String a : auxNames) {
      params.put(a, copyOf(a, source.get(a)));
    }
    this.outputs = outputPorts(outputNames);
  }

  private Tensor copyOf(String arg, Tensor from) {
    if (from == null) {
      throw new IllegalArgumentException(
          name + ": no array for '" + arg + "' (neither an input nor a parameter given)");
    }
    Tensor t = Tensor.zeros(from.shape(), 0);
    // A weight that oneDNN reordered in place (a model's inference copy, a frozen weight) goes
    // back to the default layout first: MXNet cannot copy from a oneDNN-layout array.
    from.handle().toDefaultLayout();
    t.copyFrom(from);
    return t;
  }

  /** The array bound for parameter {@code name}: its padded copy if it has one. */
  private Tensor bindArray(String name) {
    Tensor p = padded.get(name);
    return p != null ? p : params.get(name);
  }

  private boolean isInput(String arg) {
    return inputs.stream().anyMatch(p -> p.name().equals(arg));
  }

  /**
   * The outputs' shapes, from MXNet's shape inference at two batch sizes and, with free dimensions,
   * two sets of free sizes: the dimension that follows the batch is the output's batch dimension,
   * one that follows the free sizes is {@link Shape#FREE}.
   */
  private List<Port> outputPorts(List<String> names) {
    Map<String, Long> least = dimensions.probe();
    int[][] two = inferOutputs(2, least);
    int[][] three = inferOutputs(3, least);
    int[][] wide = dimensions.isEmpty() ? two : inferOutputs(2, wider(least));
    if (names.size() > two.length) {
      throw new IllegalArgumentException(
          name + ": " + names.size() + " outputs named, the symbol has " + two.length);
    }
    List<Port> out = new ArrayList<>();
    for (int o = 0; o < names.size(); o++) {
      int[] d = two[o].clone();
      for (int i = 0; i < d.length; i++) {
        if (two[o][i] != three[o][i]) {
          d[i] = Shape.BATCH;
        } else if (two[o][i] != wide[o][i]) {
          d[i] = Shape.FREE;
        }
      }
      out.add(new Port(names.get(o), Shape.of(d)));
    }
    return List.copyOf(out);
  }

  /**
   * Free sizes other than {@code least}: each at least 1024 more where the requirements allow (an
   * output size that is a floor quotient of a free size by a divisor up to 1024 differs), else the
   * next that meets them, else {@code least} itself (the requirements fix every size).
   */
  private Map<String, Long> wider(Map<String, Long> least) {
    long most = least.values().stream().mapToLong(Long::longValue).max().orElse(1);
    for (long jump : new long[] {1024, 1}) {
      try {
        return dimensions.probe(most + jump);
      } catch (IllegalStateException e) {
        // the requirements bound the sizes from above: try a smaller step
      }
    }
    return least;
  }

  /** Each input's complete shape for {@code batch} examples at free sizes {@code sizes}. */
  private List<Shape> shapesAt(int batch, Map<String, Long> sizes) {
    return inputs.stream().map(p -> dimensions.fix(p.shape(), sizes, batch)).toList();
  }

  private int[][] inferOutputs(int batch, Map<String, Long> sizes) {
    Map<String, int[]> known = new LinkedHashMap<>();
    List<Shape> shapes = shapesAt(batch, sizes);
    for (int i = 0; i < inputs.size(); i++) {
      known.put(inputs.get(i).name(), shapes.get(i).dims());
    }
    for (Map.Entry<String, Shape> z : zeroArgs.entrySet()) {
      known.put(z.getKey(), z.getValue().withBatch(batch).dims());
    }
    for (String p : params.keySet()) {
      if (arguments.contains(p)) {
        known.put(p, bindArray(p).shape().dims());
      }
    }
    ShapeInference inferred = symbol.inferShapes(known);
    return inferred.outputs();
  }

  /** The model's name. */
  public String name() {
    return name;
  }

  /** The data inputs, in the order {@link #predict} takes them. */
  public List<Port> inputs() {
    return inputs;
  }

  /**
   * The model's free dimensions and what it needs of their sizes ({@link Dimensions#NONE} for a
   * model without any).
   */
  public Dimensions dimensions() {
    return dimensions;
  }

  /** Whether some input has a free dimension: {@link #predict(List, float[][])} takes its shape. */
  public boolean hasFreeDimensions() {
    return free;
  }

  /** The outputs, in the order {@link #predict} returns them. */
  public List<Port> outputs() {
    return outputs;
  }

  /** The options this predictor was made with. */
  public InferenceOptions options() {
    return options;
  }

  /** The symbol the executors run (after the oneDNN pass when fused), as MXNet JSON. */
  public String symbolJson() {
    return json;
  }

  /** Whether the executors run the fused graph (asked for, and MXNet could run it). */
  public boolean isFused() {
    return fused;
  }

  /**
   * Why a predictor asked to be fused runs unfused: MXNet's error on the fused graph; null when it
   * runs as asked.
   */
  public String fusionRefusal() {
    return fusionRefusal;
  }

  /**
   * The convolutions this predictor runs with zero filters added up to a multiple of 16 (none
   * unfused): the same outputs, on oneDNN's blocked kernels.
   */
  public List<PaddedConvolution> padding() {
    return padding;
  }

  /** What MXNet's oneDNN pass did to the graph: one entry per fused node (none when unfused). */
  public List<FusedNode> fusion() {
    return FusedNode.of(json);
  }

  /**
   * Runs the model on {@code batch} examples: one row-major array per input ({@link #inputs()}
   * order, each {@code batch} times the input's {@link Port#exampleSize()} values in its {@link
   * Port#forBatch} shape); returns one row-major array per output.
   *
   * @throws IllegalArgumentException if the count or length of the inputs is wrong, or a value is
   *     NaN or infinite (naming the input and the position), or the model has free dimensions
   *     (whose sizes {@link #predict(List, float[][])} takes)
   */
  public synchronized float[][] predict(int batch, float[]... values) {
    checkOpen();
    if (hasFreeDimensions()) {
      throw new IllegalArgumentException(
          name
              + " has free dimensions "
              + dimensions.dims().stream().map(Dimensions.Dim::name).toList()
              + " in its inputs "
              + inputs.stream().map(p -> "'" + p.name() + "' " + p.shape()).toList()
              + ": give each input's shape, predict(shapes, values)");
    }
    check(batch, values);
    return run(shapesAt(batch, Map.of()), values).values();
  }

  /**
   * Runs the model on inputs of complete shapes {@code shapes} ({@link #inputs()} order, one
   * row-major array of {@code shapes.get(i).size()} values each); returns each output's shape and
   * values. For a model with free dimensions the shapes choose their sizes: before an executor is
   * bound for a new set of shapes every dimension's size is read from them and every requirement of
   * the model is checked.
   *
   * @throws IllegalArgumentException if the count, shape or length of the inputs is wrong (a fixed
   *     size differs, the batch sizes differ), a value is NaN or infinite, two inputs give a free
   *     dimension different sizes or a requirement fails (naming the dimension, the rule and the
   *     node, as {@link Dimensions#sizes} does)
   */
  public synchronized Prediction predict(List<Shape> shapes, float[]... values) {
    checkOpen();
    check(shapes, values);
    return run(shapes, values);
  }

  private Prediction run(List<Shape> shapes, float[][] values) {
    Bound b = executor(shapes);
    for (int i = 0; i < values.length; i++) {
      b.loads.copyInto(i, values[i]);
    }
    b.loads.readersQueued();
    b.exec.forward(false);
    b.loads.queueFence();
    float[][] out = new float[outputs.size()][];
    for (int o = 0; o < out.length; o++) {
      out[o] = b.outputs[o].toFloatArray();
    }
    return new Prediction(b.outputShapes, out);
  }

  private void check(List<Shape> shapes, float[][] values) {
    checkCount(values);
    if (shapes == null || shapes.size() != inputs.size()) {
      throw new IllegalArgumentException(
          name
              + " takes "
              + inputs.size()
              + " input shapes "
              + inputs.stream().map(p -> "'" + p.name() + "' " + p.shape()).toList()
              + ", got "
              + (shapes == null ? 0 : shapes.size()));
    }
    int batch = -1;
    for (int i = 0; i < values.length; i++) {
      Port p = inputs.get(i);
      Shape s = shapes.get(i);
      if (!p.accepts(s)) {
        throw new IllegalArgumentException(
            name
                + ": input '"
                + p.name()
                + "' has shape "
                + p.shape()
                + " (BATCH and free sizes from 1), got "
                + s);
      }
      int b = s.dim(p.batchAxis());
      if (batch >= 0 && b != batch) {
        throw new IllegalArgumentException(
            name
                + ": input '"
                + p.name()
                + "' holds "
                + b
                + " examples, input '"
                + inputs.get(0).name()
                + "' "
                + batch);
      }
      batch = b;
      checkValues(i, s, values[i]);
    }
  }

  private void checkCount(float[][] values) {
    if (values == null || values.length != inputs.size()) {
      throw new IllegalArgumentException(
          name
              + " takes "
              + inputs.size()
              + " inputs "
              + inputs.stream().map(Port::name).toList()
              + ", got "
              + (values == null ? 0 : values.length));
    }
  }

  /** Input {@code i}'s values: {@code shape.size()} of them, every one finite. */
  private void checkValues(int i, Shape shape, float[] v) {
    long expected = shape.size();
    if (v == null || v.length != expected) {
      throw new IllegalArgumentException(
          name
              + ": input '"
              + inputs.get(i).name()
              + "' of shape "
              + shape
              + " takes "
              + expected
              + " values, got "
              + (v == null ? "null" : v.length));
    }
    for (int k = 0; k < v.length; k++) {
      if (!Float.isFinite(v[k])) {
        throw new IllegalArgumentException(
            name
                + ": input '"
                + inputs.get(i).name()
                + "' holds "
                + v[k]
                + " at flat index "
                + k
                + "; inputs must be finite");
      }
    }
  }

  private void check(int batch, float[][] values) {
    if (batch < 1) {
      throw new IllegalArgumentException(
          name + ": the batch size must be at least 1, got " + batch);
    }
    checkCount(values);
    for (int i = 0; i < values.length; i++) {
      checkValues(i, inputs.get(i).forBatch(batch), values[i]);
    }
  }

  private Bound executor(List<Shape> shapes) {
    Bound b = bound.get(shapes);
    if (b == null) {
      // Free sizes the model cannot take are refused here, by rule, before MXNet sees them.
      dimensions.sizes(name, specs, shapes);
      if (bound.size() >= MAX_EXECUTORS) {
        List<Shape> eldest = bound.keySet().iterator().next();
        bound.remove(eldest).close();
      }
      b = bind(shapes);
      bound.put(List.copyOf(shapes), b);
    }
    return b;
  }

  private Bound bind(List<Shape> shapes) {
    int batch = shapes.get(0).dim(inputs.get(0).batchAxis());
    Tensor[] in = new Tensor[inputs.size()];
    Tensor[] grads = new Tensor[inputs.size()];
    List<Tensor> zeros = new ArrayList<>();
    NDArrayHandle[] args = new NDArrayHandle[arguments.size()];
    NDArrayHandle[] gradHandles = new NDArrayHandle[arguments.size()];
    int[] reqs = new int[arguments.size()];
    try {
      for (int i = 0; i < in.length; i++) {
        in[i] = Tensor.zeros(shapes.get(i), 0);
      }
      for (int a = 0; a < args.length; a++) {
        String arg = arguments.get(a);
        int input = inputIndex(arg);
        if (input >= 0) {
          args[a] = in[input].handle();
          // Unfused: one input gradient keeps MXNet's inference-only oneDNN pass off at bind.
          if (!fused && input == 0) {
            grads[0] = Tensor.zeros(shapes.get(0), 0);
            gradHandles[a] = grads[0].handle();
            reqs[a] = 1;
          }
        } else if (zeroArgs.containsKey(arg)) {
          Tensor z = Tensor.zeros(zeroArgs.get(arg).withBatch(batch), 0);
          zeros.add(z);
          args[a] = z.handle();
        } else {
          args[a] = bindArray(arg).handle();
        }
      }
      NDArrayHandle[] aux = new NDArrayHandle[auxNames.size()];
      for (int i = 0; i < aux.length; i++) {
        aux[i] = bindArray(auxNames.get(i)).handle();
      }
      ExecutorHandle exec = ExecutorHandle.bind(symbol, 0, args, gradHandles, reqs, aux);
      NDArrayHandle[] outs = exec.outputs();
      Tensor[] outTensors = new Tensor[outs.length];
      for (int i = 0; i < outs.length; i++) {
        outTensors[i] = Tensor.wrapOwned(outs[i]);
      }
      return new Bound(in, grads, zeros.toArray(Tensor[]::new), exec, outTensors, outputs.size());
    } catch (MxException e) {
      closeAll(in);
      closeAll(grads);
      closeAll(zeros.toArray(Tensor[]::new));
      throw new IllegalArgumentException(
          name
              + ": MXNet cannot bind the model for "
              + (hasFreeDimensions() ? "inputs of shapes " + shapes : "a batch of " + batch)
              + ": "
              + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      closeAll(in);
      closeAll(grads);
      closeAll(zeros.toArray(Tensor[]::new));
      throw e;
    }
  }

  private int inputIndex(String arg) {
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).name().equals(arg)) {
        return i;
      }
    }
    return -1;
  }

  /** The symbol this predictor was made from (before the oneDNN pass). */
  String sourceJson() {
    return sourceJson;
  }

  /** The weights and auxiliary states, by name (owned by this predictor). */
  Map<String, Tensor> params() {
    return params;
  }

  /** The arguments bound to zeros, by name, with their shapes. */
  Map<String, Shape> zeroArgs() {
    return zeroArgs;
  }

  /**
   * The int8 version of this predictor, calibrated on {@code data} (see {@link Quantizer}); this
   * one is unchanged.
   */
  public synchronized Predictor quantized(
      dev.kiln.runtime.data.Dataset data, QuantizeOptions options) {
    checkOpen();
    return Quantizer.quantize(this, data, options);
  }

  /** How many executors (sets of input shapes) are bound now. */
  public synchronized int executorCount() {
    return bound.size();
  }

  /**
   * Another predictor of the same model with its own copy of the weights and its own executors: for
   * a second thread.
   */
  public synchronized Predictor copy() {
    checkOpen();
    List<String> outNames = outputs.stream().map(Port::name).toList();
    return new Predictor(name, sourceJson, inputs, outNames, params, zeroArgs, dimensions, options);
  }

  /**
   * Writes the predictor as an MXNet checkpoint ({@code prefix-symbol.json}, {@code
   * prefix-0000.params} and its SHA-256): the symbol before the oneDNN pass (MXNet applies the pass
   * again when it binds for inference), each data input's shape recorded as its variable's {@value
   * #SHAPE_ATTR} attribute (free dimensions as their placeholders, and the dimensions with their
   * requirements as the first input's {@value #DIMS_ATTR}), and the weights as {@code arg:} and
   * {@code aux:} arrays. {@link #load} reads it back; so does any MXNet 1.9.1 program.
   *
   * @throws UncheckedIOException if a file cannot be written
   */
  public synchronized void save(Path prefix) {
    checkOpen();
    Map<String, Tensor> arrays = new LinkedHashMap<>();
    for (Map.Entry<String, Tensor> p : params.entrySet()) {
      String key =
          auxNames.contains(p.getKey())
              ? Checkpoint.auxKey(p.getKey())
              : Checkpoint.argKey(p.getKey());
      arrays.put(key, p.getValue());
    }
    try {
      Checkpoint.save(prefix, SymbolAttrs.withShapes(sourceJson, inputs, dimensions), arrays);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot write checkpoint " + prefix, e);
    }
  }

  /**
   * {@code symbolJson} with each of {@code inputs}' shapes recorded as {@link #save} records them
   * ({@value #SHAPE_ATTR}, and the free {@code dimensions} as {@value #DIMS_ATTR}), so that {@link
   * #load} reads a checkpoint of it without being told its inputs; what a model's own {@code save}
   * writes, in MXNet's own layout of the file (written by MXNet from the edited symbol).
   */
  public static String withInputShapes(
      String symbolJson, List<Port> inputs, Dimensions dimensions) {
    try (SymbolHandle edited =
        SymbolHandle.fromJson(SymbolAttrs.withShapes(symbolJson, inputs, dimensions))) {
      return edited.toJson();
    }
  }

  /**
   * Loads a checkpoint that {@link #save} wrote (or any MXNet checkpoint whose data inputs carry
   * the {@value #SHAPE_ATTR} attribute): every argument without an array in the parameters file is
   * a data input, and the symbol's outputs are the predictor's.
   *
   * @throws UncheckedIOException if a file is missing or does not fit
   * @throws IllegalArgumentException if an input's shape is not recorded
   */
  public static Predictor load(Path prefix, InferenceOptions options) {
    return CheckpointPredictor.load(prefix, options, List.of());
  }

  /**
   * As {@link #load(Path, InferenceOptions)}, for any MXNet checkpoint: {@code inputs} gives the
   * shapes of data inputs that the checkpoint does not record (MXNet's and Gluon's {@code export}
   * record none; a {@code KilnModel}'s {@code save} records them), and overrides recorded ones.
   *
   * @param inputs data inputs by name, each with its batch dimension
   * @throws UncheckedIOException if a file is missing or does not fit
   * @throws IllegalArgumentException if an input's shape is neither recorded nor given, or a given
   *     name is no argument of the symbol, or is one the parameters file holds
   */
  public static Predictor load(Path prefix, InferenceOptions options, List<Port> inputs) {
    return CheckpointPredictor.load(prefix, options, inputs);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + ": predictor is closed");
    }
  }

  /** Whether {@link #close()} ran. */
  public synchronized boolean isClosed() {
    return closed;
  }

  /** Frees every executor, the weights and the symbol. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (Bound b : bound.values()) {
      b.close();
    }
    bound.clear();
    closeAll(params.values().toArray(Tensor[]::new));
    closeAll(padded.values().toArray(Tensor[]::new));
    symbol.close();
  }

  static void closeAll(Tensor[] ts) {
    if (ts != null) {
      for (Tensor t : ts) {
        if (t != null) {
          t.close();
        }
      }
    }
  }

  @Override
  public String toString() {
    return "Predictor["
        + name
        + ", "
        + (fused ? "fused" : "unfused")
        + ", inputs "
        + Arrays.toString(inputs.toArray())
        + "]";
  }
}
