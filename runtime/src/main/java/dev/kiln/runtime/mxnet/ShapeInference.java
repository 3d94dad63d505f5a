package dev.kiln.runtime.mxnet;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.Map;

/**
 * MXNet's own shape inference ({@code MXSymbolInferShapeEx}) over a symbol, given the shapes of
 * some of its arguments. A dimension or shape MXNet could not infer is reported as an empty array.
 *
 * @param arguments one shape per argument, in {@code MXSymbolListArguments} order
 * @param outputs one shape per output, in {@code MXSymbolListOutputs} order
 * @param auxiliary one shape per auxiliary state, in {@code MXSymbolListAuxiliaryStates} order
 */
public record ShapeInference(int[][] arguments, int[][] outputs, int[][] auxiliary) {
  /**
   * Infers every shape of {@code symbol} from the {@code known} argument shapes (name to
   * dimensions, all positive).
   *
   * @throws MxException with MXNet's text (which names the operator at fault) when the shapes are
   *     inconsistent
   */
  static ShapeInference infer(Pointer symbol, Map<String, int[]> known) {
    String[] keys = new String[known.size()];
    int[] indPtr = new int[known.size() + 1];
    int total = known.values().stream().mapToInt(d -> d.length).sum();
    int[] data = new int[total];
    int k = 0;
    int at = 0;
    for (Map.Entry<String, int[]> e : known.entrySet()) {
      keys[k] = e.getKey();
      for (int d : e.getValue()) {
        data[at++] = d;
      }
      indPtr[++k] = at;
    }
    IntByReference inSize = new IntByReference();
    PointerByReference inNdim = new PointerByReference();
    PointerByReference inData = new PointerByReference();
    IntByReference outSize = new IntByReference();
    PointerByReference outNdim = new PointerByReference();
    PointerByReference outData = new PointerByReference();
    IntByReference auxSize = new IntByReference();
    PointerByReference auxNdim = new PointerByReference();
    PointerByReference auxData = new PointerByReference();
    IntByReference complete = new IntByReference();
    Mx.check(
        Mx.api()
            .MXSymbolInferShapeEx(
                symbol,
                keys.length,
                keys,
                indPtr,
                data,
                inSize,
                inNdim,
                inData,
                outSize,
                outNdim,
                outData,
                auxSize,
                auxNdim,
                auxData,
                complete),
        "MXSymbolInferShapeEx");
    return new ShapeInference(
        read(inSize, inNdim, inData),
        read(outSize, outNdim, outData),
        read(auxSize, auxNdim, auxData));
  }

  /** Copies MXNet's {@code n} shapes (an ndim array and an array of dimension arrays). */
  private static int[][] read(
      IntByReference size, PointerByReference ndim, PointerByReference dims) {
    int n = size.getValue();
    int[][] out = new int[n][];
    if (n == 0) {
      return out;
    }
    int[] ndims = ndim.getValue().getIntArray(0, n);
    Pointer[] rows = dims.getValue().getPointerArray(0, n);
    for (int i = 0; i < n; i++) {
      out[i] = ndims[i] <= 0 ? new int[0] : rows[i].getIntArray(0, ndims[i]);
    }
    return out;
  }
}
