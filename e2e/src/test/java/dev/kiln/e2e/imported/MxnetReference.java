package dev.kiln.e2e.imported;

import com.sun.jna.ptr.IntByReference;
import dev.kiln.runtime.mxnet.ExecutorHandle;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.ShapeInference;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * MXNet's own executor, bound from a symbol file's text as {@code MXSymbolCreateFromJSON} reads it
 * (upgrading older formats) and from named arrays, as MXNet's Module API and DJL bind a published
 * model: what an imported model's outputs must equal.
 */
final class MxnetReference {
  private MxnetReference() {}

  /**
   * The first output of {@code json}'s graph in inference mode, with {@code input} of shape {@code
   * shape} set to {@code x}, every other argument and auxiliary state from {@code arrays} by name
   * (an argument it does not hold, such as a label, is zeros).
   */
  static float[] forward(
      String json, Map<String, float[]> arrays, String input, int[] shape, float[] x) {
    return forward(json, null, arrays, input, shape, x);
  }

  /**
   * As {@link #forward(String, Map, String, int[], float[])}, for the internal output {@code
   * output} ({@code tanh3_output}) of the graph instead of its head, when not null.
   */
  static float[] forward(
      String json,
      String output,
      Map<String, float[]> arrays,
      String input,
      int[] shape,
      float[] x) {
    // MXNet's Python frontend reads a 1.x file outside np_shape, where a 0 in a shape is unknown
    // (FusedRNNCell's begin state, _zeros of shape (layers, 0, units)); Kiln and DJL keep NumPy
    // semantics on for the process, so the reference turns them off while it runs.
    // (MXSetIsNumpyShape reports the old state as a bool; MXIsNumpyShape tells global from local.)
    IntByReference previous = new IntByReference();
    Mx.check(Mx.api().MXIsNumpyShape(previous), "MXIsNumpyShape");
    Mx.check(Mx.api().MXSetIsNumpyShape(0, new IntByReference()), "MXSetIsNumpyShape");
    try (SymbolHandle file = SymbolHandle.fromJson(json)) {
      if (output == null) {
        return bound(file, arrays, input, shape, x);
      }
      try (SymbolHandle internals = file.internals();
          SymbolHandle cut = internals.output(internals.outputs().indexOf(output))) {
        return bound(cut, arrays, input, shape, x);
      }
    } finally {
      Mx.check(
          Mx.api().MXSetIsNumpyShape(previous.getValue(), new IntByReference()),
          "MXSetIsNumpyShape");
    }
  }

  private static float[] bound(
      SymbolHandle sym, Map<String, float[]> arrays, String input, int[] shape, float[] x) {
    List<NDArrayHandle> made = new ArrayList<>();
    try {
      ShapeInference shapes = sym.inferShapes(Map.of(input, shape));
      List<String> args = sym.arguments();
      List<String> aux = sym.auxiliaryStates();
      NDArrayHandle[] argArrays = new NDArrayHandle[args.size()];
      for (int i = 0; i < args.size(); i++) {
        String name = args.get(i);
        argArrays[i] =
            array(made, shapes.arguments()[i], name.equals(input) ? x : arrays.get(name));
      }
      NDArrayHandle[] auxArrays = new NDArrayHandle[aux.size()];
      for (int i = 0; i < aux.size(); i++) {
        auxArrays[i] = array(made, shapes.auxiliary()[i], arrays.get(aux.get(i)));
      }
      try (ExecutorHandle exec =
          ExecutorHandle.bind(
              sym, 0, argArrays, new NDArrayHandle[args.size()], new int[args.size()], auxArrays)) {
        exec.forward(false);
        NDArrayHandle[] outs = exec.outputs();
        try {
          int n = 1;
          for (int d : outs[0].shape()) {
            n *= d;
          }
          float[] y = new float[n];
          outs[0].copyTo(y, n);
          return y;
        } finally {
          for (NDArrayHandle o : outs) {
            o.close();
          }
        }
      }
    } finally {
      made.forEach(NDArrayHandle::close);
    }
  }

  private static NDArrayHandle array(List<NDArrayHandle> made, int[] shape, float[] values) {
    NDArrayHandle a = NDArrayHandle.create(shape, 0);
    made.add(a);
    long n = 1;
    for (int d : shape) {
      n *= d;
    }
    float[] v = values == null ? new float[(int) n] : values;
    if (v.length != n) {
      throw new IllegalArgumentException("array of " + v.length + " values for shape of " + n);
    }
    a.copyFrom(v, n);
    return a;
  }
}
