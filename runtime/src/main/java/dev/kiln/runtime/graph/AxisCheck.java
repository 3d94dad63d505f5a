package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The axis a softmax or a concatenation runs along, checked against the rank of its inputs when the
 * graph is built: MXNet 1.9.1's softmax accepts any axis at shape inference (and fails, or reads
 * past its data, only when it runs), and its concatenation reports a bad one in terms of its own
 * arguments.
 *
 * @param source the node
 * @param op {@code softmax} or {@code concat}, as the message names it
 * @param inputs the node's inputs
 * @param axis the axis given, possibly negative
 * @param classifierHead whether the softmax becomes MXNet's {@code SoftmaxOutput}, which is over
 *     the last axis only
 */
record AxisCheck(NodeSource source, String op, List<Sym> inputs, int axis, boolean classifierHead) {
  /** Copies the inputs. */
  AxisCheck {
    inputs = List.copyOf(inputs);
  }

  /** Throws when the axis does not fit the inputs' rank, as far as MXNet can infer it. */
  void check(SymbolArena arena, Map<String, int[]> known) {
    int[] ranks = arena.ranks(inputs, known);
    if (ranks == null || Arrays.stream(ranks).distinct().count() != 1) {
      return; // MXNet's own inference names the node whose shapes do not fit
    }
    int rank = ranks[0];
    String of = "its input" + (inputs.size() > 1 ? "s" : "") + " of rank " + rank;
    if (axis < -rank || axis >= rank) {
      throw new ModelException(
          source,
          source
              + ": "
              + op
              + " axis "
              + axis
              + " is out of range for "
              + of
              + " (allowed: "
              + -rank
              + " to "
              + (rank - 1)
              + ")",
          null);
    }
    if (classifierHead && Math.floorMod(axis, rank) != rank - 1) {
      throw new ModelException(
          source,
          source
              + ": classifier training replaces this softmax "
              + "with MXNet's SoftmaxOutput, which is over the last axis ("
              + (rank - 1)
              + " of "
              + of
              + "), but this softmax is over axis "
              + axis,
          null);
    }
  }
}
