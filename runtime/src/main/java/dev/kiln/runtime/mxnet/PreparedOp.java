package dev.kiln.runtime.mxnet;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * One imperative operator call prepared once and run many times over the same arrays, e.g. {@code
 * sgd_update(weight, grad) -> weight} every training step. The native blocks holding the input and
 * output handles are fields, so they stay reachable for as long as MXNet may read them and nothing
 * is allocated per run but the attribute strings.
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
    numOutputs.setValue(numOutputsValue);
    Mx.check(
        Mx.api()
            .MXImperativeInvoke(
                creator, numInputs, inputs, numOutputs, outputsRef, keys.length, keys, vals),
        name);
  }
}
