package dev.kiln.runtime.mxnet;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * One MXNet {@code ExecutorHandle}: a symbol bound to arrays ({@code MXExecutorBindEX}), run
 * forward and backward, and freed ({@code MXExecutorFree}) by {@link #close()}. The bound arrays
 * belong to the caller and must outlive the executor; the output handles it gives out ({@link
 * #outputs()}) belong to whoever asked for them.
 */
public final class ExecutorHandle implements AutoCloseable {
  private Pointer pointer;

  private ExecutorHandle(Pointer pointer) {
    this.pointer = pointer;
  }

  /**
   * Binds {@code symbol} on CPU context {@code cpu(device)}: argument {@code i} to {@code args[i]},
   * its gradient to {@code grads[i]} (null for none) with MXNet {@code grad_req} code {@code
   * gradReqs[i]}, and the auxiliary states to {@code aux}.
   *
   * @throws MxException with MXNet's text when the symbol does not bind
   */
  public static ExecutorHandle bind(
      SymbolHandle symbol,
      int device,
      NDArrayHandle[] args,
      NDArrayHandle[] grads,
      int[] gradReqs,
      NDArrayHandle[] aux) {
    PointerByReference out = new PointerByReference();
    Mx.check(
        Mx.api()
            .MXExecutorBindEX(
                symbol.pointer(),
                Mx.CPU,
                device,
                0,
                null,
                null,
                null,
                args.length,
                NDArrayHandle.pointers(args),
                NDArrayHandle.pointers(grads),
                gradReqs,
                aux.length,
                NDArrayHandle.pointers(aux),
                null,
                out),
        "MXExecutorBindEX");
    return new ExecutorHandle(out.getValue());
  }

  private Pointer pointer() {
    Pointer p = pointer;
    if (p == null) {
      throw new IllegalStateException("executor handle is closed");
    }
    return p;
  }

  /**
   * New handles on the executor's output arrays ({@code MXExecutorOutputs}), in MXNet's output
   * order; the caller owns them.
   */
  public NDArrayHandle[] outputs() {
    IntByReference n = new IntByReference();
    PointerByReference handles = new PointerByReference();
    Mx.check(Mx.api().MXExecutorOutputs(pointer(), n, handles), "MXExecutorOutputs");
    Pointer[] pointers = handles.getValue().getPointerArray(0, n.getValue());
    NDArrayHandle[] out = new NDArrayHandle[pointers.length];
    for (int i = 0; i < pointers.length; i++) {
      out[i] = new NDArrayHandle(pointers[i]);
    }
    return out;
  }

  /**
   * The symbol this executor runs, after the graph passes MXNet applied when binding it (e.g. the
   * oneDNN subgraph backend's fusions) ({@code MXExecutorGetOptimizedSymbol}); the caller owns it.
   */
  public SymbolHandle optimizedSymbol() {
    PointerByReference out = new PointerByReference();
    Mx.check(Mx.api().MXExecutorGetOptimizedSymbol(pointer(), out), "MXExecutorGetOptimizedSymbol");
    return SymbolHandle.own(out.getValue());
  }

  /** Runs the forward pass ({@code MXExecutorForward}), in training mode or inference mode. */
  public void forward(boolean train) {
    Mx.check(Mx.api().MXExecutorForward(pointer(), train ? 1 : 0), "MXExecutorForward");
  }

  /**
   * Runs the training-mode backward pass ({@code MXExecutorBackwardEx}) with {@code heads}, one
   * head gradient per output, or {@link HandleArray#EMPTY} for a graph whose outputs are losses.
   */
  public void backward(HandleArray heads) {
    Mx.check(
        Mx.api().MXExecutorBackwardEx(pointer(), heads.size(), heads.block(), 1),
        "MXExecutorBackwardEx");
  }

  /** Frees the executor ({@code MXExecutorFree}). Idempotent; a failed free may be retried. */
  @Override
  public void close() {
    if (pointer != null) {
      Mx.check(Mx.api().MXExecutorFree(pointer), "MXExecutorFree");
      pointer = null;
    }
  }
}
