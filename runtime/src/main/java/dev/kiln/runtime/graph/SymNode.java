package dev.kiln.runtime.graph;

import com.sun.jna.Pointer;
import dev.kiln.annotations.Sym;

/**
 * The runtime's {@link Sym}: one MXNet symbol handle made while a graph is built. The {@link
 * GraphBuilder} that made it owns the handle.
 */
final class SymNode implements Sym {
  private final String name;
  private final Pointer handle;

  SymNode(String name, Pointer handle) {
    this.name = name;
    this.handle = handle;
  }

  @Override
  public String name() {
    return name;
  }

  Pointer handle() {
    return handle;
  }

  @Override
  public String toString() {
    return "Sym(" + name + ")";
  }
}
