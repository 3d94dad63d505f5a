package dev.kiln.e2e.onnx;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.kiln.annotations.Sym;
import dev.kiln.onnx.OnnxFile;
import dev.kiln.onnx.OnnxGraph;
import dev.kiln.onnx.OnnxImport;
import dev.kiln.ops.LayerOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.rule.TShape;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One ONNX file run two ways: by ONNX Runtime (the peer, one intra-op thread) and by Kiln, its
 * translation ({@link OnnxImport}) built on MXNet with the runtime's graph builder and its
 * parameters loaded from the file ({@link ModelRuntime#loadOnnx}), as a generated model does.
 */
final class OnnxPeer {
  private OnnxPeer() {}

  /** The outputs of ONNX Runtime on {@code file} for {@code inputs} (by name, with shapes). */
  static List<float[]> onnxRuntime(Path file, Map<String, Input> inputs) throws OrtException {
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
      options.setIntraOpNumThreads(1);
      options.setInterOpNumThreads(1);
      try (OrtSession session = env.createSession(file.toString(), options)) {
        Map<String, OnnxTensor> feed = new LinkedHashMap<>();
        try {
          for (Map.Entry<String, Input> e : inputs.entrySet()) {
            Input in = e.getValue();
            feed.put(
                e.getKey(),
                in.integer()
                    ? OnnxTensor.createTensor(env, LongBuffer.wrap(longs(in.values())), in.shape())
                    : OnnxTensor.createTensor(env, FloatBuffer.wrap(in.values()), in.shape()));
          }
          try (OrtSession.Result result = session.run(feed)) {
            List<float[]> out = new ArrayList<>();
            for (int k = 0; k < result.size(); k++) {
              FloatBuffer b = ((OnnxTensor) result.get(k)).getFloatBuffer();
              float[] v = new float[b.remaining()];
              b.get(v);
              out.add(v);
            }
            return out;
          }
        } finally {
          feed.values().forEach(OnnxTensor::close);
        }
      }
    }
  }

  /** The outputs of Kiln on {@code file} for {@code inputs}, in inference mode. */
  static List<float[]> kiln(Path file, Map<String, Input> inputs, NDManager nd) throws IOException {
    OnnxGraph g = OnnxImport.translate(OnnxFile.read(file), "m.onnx", "T.net()", Map.of());
    GraphBuilder b = new GraphBuilder("T");
    Map<String, Sym> syms = new HashMap<>();
    Map<String, Shape> onnxInputs = new LinkedHashMap<>();
    for (OnnxGraph.Input in : g.inputs()) {
      syms.put(
          in.name(),
          b.input(
              new NodeSource(in.name(), "T." + in.name() + "()", "@Input"), Shape.of(in.shape())));
      onnxInputs.put(in.name(), Shape.of(in.shape()));
    }
    List<String> wanted = new ArrayList<>();
    for (OnnxGraph.Node n : g.nodes()) {
      NodeSource src = new NodeSource(n.name(), "T.net() " + n.name(), n.text());
      for (Map.Entry<String, String> p : n.params().entrySet()) {
        src = src.named(p.getKey(), p.getValue());
        wanted.add(p.getValue());
      }
      if (n.constant()) {
        b.freeze(src);
      }
      Sym[] in = n.inputs().stream().map(syms::get).toArray(Sym[]::new);
      syms.put(n.name(), b.node(src, (LayerOp) n.op(), in));
    }
    List<Sym> outs = g.outputs().stream().map(o -> syms.get(o.node())).toList();
    try (ModelRuntime m = new ModelRuntime("TModel", b.build(outs), Init.xavier(), 1)) {
      m.loadOnnx(file, wanted, onnxInputs);
      NDArray[] args = new NDArray[g.inputs().size()];
      for (int k = 0; k < args.length; k++) {
        Input in = inputs.get(g.inputs().get(k).name());
        args[k] = nd.create(in.values(), new ai.djl.ndarray.types.Shape(in.shape()));
      }
      List<float[]> out = new ArrayList<>();
      for (NDArray a : m.forward(args)) {
        out.add(a.toFloatArray());
      }
      return out;
    }
  }

  /** {@code kiln} against {@code onnxRuntime}: every value within {@code 1e-5} relative. */
  static void agree(Path file, Map<String, Input> inputs, NDManager nd, String what)
      throws IOException, OrtException {
    agree(file, file, inputs, nd, what);
  }

  /**
   * Kiln on {@code file} against ONNX Runtime on {@code peer}, a model that computes the same with
   * operators ONNX Runtime runs (it runs no batch-first recurrent layer, {@code layout = 1}).
   */
  static void agree(Path peer, Path file, Map<String, Input> inputs, NDManager nd, String what)
      throws IOException, OrtException {
    List<float[]> expected = onnxRuntime(peer, inputs);
    List<float[]> actual = kiln(file, inputs, nd);
    if (expected.size() != actual.size()) {
      throw new AssertionError(
          what + ": " + actual.size() + " outputs, ONNX Runtime gives " + expected.size());
    }
    for (int k = 0; k < expected.size(); k++) {
      float[] e = expected.get(k);
      float[] a = actual.get(k);
      if (e.length != a.length) {
        throw new AssertionError(
            what + ": output " + k + " has " + a.length + " values, not " + e.length);
      }
      double scale = 0;
      for (float v : e) {
        scale = Math.max(scale, Math.abs(v));
      }
      for (int j = 0; j < e.length; j++) {
        double tolerance = 1e-5 * Math.max(1, scale);
        if (!(Math.abs(e[j] - a[j]) <= tolerance)) {
          throw new AssertionError(
              what
                  + ": output "
                  + k
                  + " value "
                  + j
                  + " is "
                  + a[j]
                  + ", ONNX Runtime gives "
                  + e[j]);
        }
      }
    }
  }

  private static long[] longs(float[] v) {
    long[] out = new long[v.length];
    for (int k = 0; k < v.length; k++) {
      out[k] = (long) v[k];
    }
    return out;
  }

  /**
   * One input.
   *
   * @param values its values, row-major (token ids as floats)
   * @param shape its shape
   * @param integer whether ONNX Runtime takes it as int64
   */
  record Input(float[] values, long[] shape, boolean integer) {}

  /** A float input of random values of {@code shape}. */
  static Input random(java.util.Random rng, long... shape) {
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    float[] v = new float[(int) n];
    for (int k = 0; k < v.length; k++) {
      v[k] = (float) rng.nextGaussian();
    }
    return new Input(v, shape, false);
  }

  /** {@code TShape} of a long shape, for messages. */
  static TShape shape(long... dims) {
    int[] d = new int[dims.length];
    for (int k = 0; k < d.length; k++) {
      d[k] = (int) dims[k];
    }
    return TShape.of(d);
  }
}
