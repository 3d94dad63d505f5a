package dev.kiln.runtime.mxnet;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One imperative operator call prepared once and run many times over the same arrays, e.g. {@code
 * sgd_update(weight, grad) -> weight} every training step. The native blocks holding the input and
 * output handles are fields, so they stay reachable for as long as MXNet may read them and nothing
 * is allocated per run. The attributes are turned into native C strings once and kept while a run
 * passes the same ones again (JNA would otherwise allocate, register and free native memory for
 * every string on every call: a quarter of the Java thread's samples in the MLP's training step,
 * issue 38).
 */
public final class PreparedOp {
  private final String name;
  private final Pointer creator;
  private final int numInputs;
  private final Memory inputs;
  private final Memory outputs;
  private final PointerByReference outputsRef;
  private final IntByReference numOutputs;
  private final int numOutputsValue;
  private String[] attrKeys = {};
  private String[] attrVals = {};
  private Memory keyBlock;
  private Memory valBlock;

  /** The C strings the key and value blocks point to: held so that they stay allocated. */
  @SuppressWarnings("unused")
  private List<Memory> attrStrings = List.of();

  /**
   * Prepares {@code op(inputs...) -> outputs...}. The arrays must outlive this object (it keeps
   * their native handles, not the handle objects, and owns none of them).
   */
  public PreparedOp(String op, NDArrayHandle[] inputs, NDArrayHandle[] outputs) {
    this.name = op;
    this.creator = Mx.op(op);
    this.numInputs = inputs.length;
    this.inputs = Mx.handleBlock(NDArrayHandle.pointers(inputs));
    this.outputs = Mx.handleBlock(NDArrayHandle.pointers(outputs));
    this.outputsRef = new PointerByReference(this.outputs);
    this.numOutputsValue = outputs.length;
    this.numOutputs = new IntByReference(outputs.length);
  }

  /** Runs the operator with the given attributes (keys and values as MXNet strings). */
  public void run(String[] keys, String[] vals) {
    if (keys.length != vals.length) {
      throw new IllegalArgumentException(
          name + ": " + keys.length + " attribute keys but " + vals.length + " values");
    }
    if (!Arrays.equals(keys, attrKeys) || !Arrays.equals(vals, attrVals)) {
      prepareAttributes(keys, vals);
    }
    numOutputs.setValue(numOutputsValue);
    Mx.check(
        Mx.api()
            .MXImperativeInvoke(
                creator,
                numInputs,
                inputs,
                numOutputs,
                outputsRef,
                attrKeys.length,
                keyBlock,
                valBlock),
        name);
  }

  /** Keeps copies of {@code keys} and {@code vals} and their native C strings for the next runs. */
  private void prepareAttributes(String[] keys, String[] vals) {
    List<Memory> strings = new ArrayList<>();
    Memory k = stringBlock(keys, strings);
    Memory v = stringBlock(vals, strings);
    attrKeys = keys.clone();
    attrVals = vals.clone();
    keyBlock = k;
    valBlock = v;
    attrStrings = strings;
  }

  /** A native block of pointers to C strings holding {@code values}; null for none. */
  private static Memory stringBlock(String[] values, List<Memory> strings) {
    if (values.length == 0) {
      return null;
    }
    Memory block = new Memory((long) Native.POINTER_SIZE * values.length);
    for (int i = 0; i < values.length; i++) {
      byte[] bytes = Native.toByteArray(values[i]);
      Memory string = new Memory(bytes.length);
      string.write(0, bytes, 0, bytes.length);
      strings.add(string);
      block.setPointer((long) i * Native.POINTER_SIZE, string);
    }
    return block;
  }
}
