package dev.kiln.runtime.graph;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.mxnet.Mx;
import java.util.List;

/**
 * A built model graph: one MXNet symbol (grouping the outputs) with the inputs, outputs and
 * parameters Kiln knows about it, and where every node was declared.
 *
 * <p>The graph owns its symbol handle and frees it in {@link #close()}.
 */
public final class Graph implements AutoCloseable {
  private final String model;
  private final Pointer symbol;
  private final List<InputSpec> inputs;
  private final List<String> outputs;
  private final List<ParamSpec> params;
  private final List<String> labels;
  private final List<String> arguments;
  private final SourceMap sources;
  private boolean closed;

  Graph(String model, Pointer symbol, List<InputSpec> inputs, List<String> outputs,
      List<ParamSpec> params, List<String> labels, List<String> arguments, SourceMap sources) {
    this.model = model;
    this.symbol = symbol;
    this.inputs = List.copyOf(inputs);
    this.outputs = List.copyOf(outputs);
    this.params = List.copyOf(params);
    this.labels = List.copyOf(labels);
    this.arguments = List.copyOf(arguments);
    this.sources = sources;
  }

  /** The model's simple name, e.g. {@code FashionMlp}. */
  public String model() {
    return model;
  }

  /** The inputs, in declaration order. */
  public List<InputSpec> inputs() {
    return inputs;
  }

  /** The names of the output nodes, in declaration order. */
  public List<String> outputs() {
    return outputs;
  }

  /** The learnable parameters, in MXNet's argument order. */
  public List<ParamSpec> params() {
    return params;
  }

  /** The label variables of a classifier graph ({@code <node>_label}); empty otherwise. */
  public List<String> labels() {
    return labels;
  }

  /** Every argument of the symbol (inputs and parameters) in MXNet's order. */
  public List<String> arguments() {
    return arguments;
  }

  /** Where each node was declared. */
  public SourceMap sources() {
    return sources;
  }

  /** The symbol handle; valid until {@link #close()}. */
  public Pointer symbol() {
    if (closed) {
      throw new IllegalStateException(model + " graph is closed");
    }
    return symbol;
  }

  /** The symbol as MXNet's JSON (what {@code -symbol.json} files hold). */
  public String toJson() {
    PointerByReference out = new PointerByReference();
    Mx.check(Mx.api().MXSymbolSaveToJSON(symbol(), out), "MXSymbolSaveToJSON");
    return out.getValue().getString(0);
  }

  /** The parameter named {@code name}, or null. */
  public ParamSpec param(String name) {
    for (ParamSpec p : params) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    return null;
  }

  /** Frees the symbol handle. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      Mx.check(Mx.api().MXSymbolFree(symbol), "MXSymbolFree");
    }
  }
}
