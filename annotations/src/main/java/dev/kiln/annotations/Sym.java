package dev.kiln.annotations;

/**
 * A symbolic tensor: the output of one node of a model's graph. In a {@link Model} interface
 * every node method returns {@code Sym} and takes the {@code Sym}s it reads. The Kiln runtime
 * implements this interface when it builds the graph; user code never implements it.
 */
public interface Sym {
  /** The name of the graph node this tensor is the output of. */
  String name();
}
