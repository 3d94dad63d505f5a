package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.Native;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The MXNet symbols one graph is made of while it is built: every handle the builder makes is made
 * here and owned here until {@link #freeAll()}, and every operator is registered with the node that
 * declared it (for errors that name it) and noted when oneDNN may reorder its weight in place.
 *
 * <p>The {@link GraphBuilder} makes one and owns it; custom-layer tracing ({@code
 * dev.kiln.runtime.graph.trace}) makes its operators through {@link #op} and {@link #output}.
 */
public final class SymbolArena {
  private final String model;
  private final Map<String, NodeSource> sources;
  private final List<SymbolHandle> handles = new ArrayList<>();
  private final Set<String> variables = new HashSet<>();
  private final Map<String, SymNode> byName = new HashMap<>();
  private final Set<String> reorderedWeights = new LinkedHashSet<>();
  private final Set<String> relabelledWeights = new LinkedHashSet<>();

  /** An arena for {@code model}, registering every operator's node in {@code sources}. */
  SymbolArena(String model, Map<String, NodeSource> sources) {
    this.model = model;
    this.sources = sources;
  }

  /**
   * The variable {@code name}: made at the first call, the same one at every later call, so that a
   * parameter several nodes read (an imported file's tied weights, an unrolled net's steps) is one
   * argument of the graph, as MXNet reads it.
   */
  SymNode variable(String name) {
    SymNode made = byName.get(name);
    if (made != null) {
      return made;
    }
    SymbolHandle h = SymbolHandle.variable(name);
    handles.add(h);
    variables.add(name);
    SymNode v = new SymNode(name, h, null);
    byName.put(name, v);
    return v;
  }

  /**
   * Operator {@code op} named {@code name} with {@code attrs}, composed over {@code args} (by
   * keyword when {@code keys} is given, else by position), declared by node {@code src}.
   *
   * @throws ModelException naming the node when MXNet refuses the operator or its arguments
   */
  public SymNode op(
      NodeSource src, String op, String name, Attrs attrs, List<String> keys, List<Sym> args) {
    sources.put(name, src);
    noteReorderedWeight(op, keys, args);
    try {
      SymbolHandle handle = SymbolHandle.operator(op, attrs.keys(), attrs.values());
      handles.add(handle);
      SymbolHandle[] argHandles = new SymbolHandle[args.size()];
      for (int i = 0; i < argHandles.length; i++) {
        argHandles[i] = ((SymNode) args.get(i)).handle();
      }
      handle.compose(name, keys == null ? null : keys.toArray(new String[0]), argHandles);
      return new SymNode(name, handle, src);
    } catch (MxException e) {
      throw new SourceMap(model, Map.of(name, src)).trace("building the graph", e);
    }
  }

  /** Output {@code index} of the multi-output symbol {@code s}, as a symbol of its own. */
  public SymNode output(Sym s, int index) {
    SymbolHandle h = ((SymNode) s).handle().output(index);
    handles.add(h);
    return new SymNode(s.name() + "_output" + index, h, null);
  }

  /** A new symbol grouping {@code symbols}, which the caller owns. */
  static SymbolHandle group(List<Sym> symbols) {
    return SymbolHandle.group(
        symbols.stream().map(x -> ((SymNode) x).handle()).toArray(SymbolHandle[]::new));
  }

  /**
   * The ranks of what {@code xs} compute, inferred from {@code known}; null when MXNet cannot infer
   * them (an error the graph's own inference then reports, naming its node).
   */
  int[] ranks(List<Sym> xs, Map<String, int[]> known) {
    try (SymbolHandle group = group(xs)) {
      Map<String, int[]> used = new LinkedHashMap<>();
      for (String arg : group.arguments()) {
        if (known.containsKey(arg)) {
          used.put(arg, known.get(arg));
        }
      }
      int[][] outputs = group.inferShapes(used).outputs();
      int[] ranks = new int[outputs.length];
      for (int i = 0; i < outputs.length; i++) {
        if (outputs[i].length == 0) {
          return null;
        }
        ranks[i] = outputs[i].length;
      }
      return ranks;
    } catch (MxException e) {
      return null;
    }
  }

  /**
   * The variables that oneDNN may reorder in place, as recorded while the operators were made
   * ({@link Native#reorderedInput()}).
   */
  Set<String> reorderedWeights() {
    return reorderedWeights;
  }

  /**
   * The variables whose layout oneDNN relabels in place in every pass, as recorded while the
   * operators were made ({@link Native#relabelledInput()}).
   */
  Set<String> relabelledWeights() {
    return relabelledWeights;
  }

  /**
   * Records the variable that operator {@code op} reads as the weight oneDNN may reorder in place:
   * argument 1 by position, or the one keyed {@code weight}. {@link Graph#reorderedWeights()} gives
   * them without parsing the symbol's JSON.
   */
  private void noteReorderedWeight(String op, List<String> keys, List<Sym> args) {
    Native kernel = Native.lookup(op);
    note(kernel.reorderedInput(), keys, args, reorderedWeights);
    note(kernel.relabelledInput(), keys, args, relabelledWeights);
  }

  private void note(int index, List<String> keys, List<Sym> args, Set<String> into) {
    if (index < 0) {
      return;
    }
    int at = keys == null ? index : keys.indexOf("weight");
    if (at >= 0 && at < args.size() && variables.contains(args.get(at).name())) {
      into.add(args.get(at).name());
    }
  }

  /** Frees every handle the arena still owns. Idempotent. */
  void freeAll() {
    for (SymbolHandle h : handles) {
      h.close();
    }
    handles.clear();
    byName.clear();
  }
}
