package dev.kiln.ops.rule;

import dev.kiln.names.AuxRole;
import dev.kiln.names.NodeNames;
import dev.kiln.names.ParamRole;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Where an op's shape rule runs: the node, its inputs with the nodes they came from, and the checks
 * and names several rules share. A broken rule throws a {@link RuleError}, which the checker
 * reports on the node.
 *
 * @param where how messages name the node, e.g. {@code Net.conv()}
 * @param node the node's name
 * @param annotationText the annotation that made it, as written, e.g. {@code @Conv2D(filters = 6,
 *     kernel = 5)}
 * @param parameterNames the names of the declaring method's parameters, one per input
 * @param names the MXNet name of the node's parameter or auxiliary state of a role: {@code
 *     <node>_<role>}, or an imported file's own name for it
 * @param in its inputs, in wiring order
 */
public record ShapeSite(
    String where,
    String node,
    String annotationText,
    List<String> parameterNames,
    UnaryOperator<String> names,
    List<Source> in) {
  /** Copies the lists. */
  public ShapeSite {
    parameterNames = List.copyOf(parameterNames);
    in = List.copyOf(in);
  }

  /** A site whose parameters are named {@code <node>_<role>}. */
  public ShapeSite(String where, String node, String annotationText, List<Source> in) {
    this(
        where,
        node,
        annotationText,
        in.stream().map(Source::node).toList(),
        role -> NodeNames.of(node, role),
        in);
  }

  /** The first (for most ops, the only) input. */
  public Source x() {
    return in.get(0);
  }

  /** The first input's shape. */
  public TShape shape() {
    return x().shape();
  }

  /** {@code Net.conv() @Conv2D(filters = 6, kernel = 5)}: how layer-library messages start. */
  public String prefix() {
    return where + " " + annotationText;
  }

  /** Fails with {@code message} and {@code args}, underlining {@code attribute} (or nothing). */
  public RuleError fail(Message message, String attribute, Object... args) {
    return new RuleError(message, attribute, args);
  }

  /** Parameter {@code <node>_<role>} of this node. */
  public ParamInfo param(ParamRole role, TShape shape) {
    return new ParamInfo(names.apply(role.role()), node, shape);
  }

  /** Parameter {@code <node>_<role>} of this node, for a custom layer's own role. */
  public ParamInfo param(String role, TShape shape) {
    return new ParamInfo(NodeNames.of(node, role), node, shape);
  }

  /** Auxiliary state {@code <node>_<role>} of this node. */
  public ParamInfo aux(AuxRole role, TShape shape) {
    return new ParamInfo(names.apply(role.role()), node, shape);
  }

  /** Checks {@code axis} against {@code s}'s rank and returns it made non-negative. */
  public int axis(int axis, Source s) {
    int rank = s.shape().rank();
    if (axis < -rank || axis >= rank) {
      throw fail(Message.BAD_AXIS, "axis", where, axis, s.describe(), rank, -rank, rank - 1);
    }
    return axis < 0 ? axis + rank : axis;
  }

  /**
   * The size of the first input's axis {@code axis}, which shapes {@code layer}'s parameters: the
   * axis must exist and its size be known.
   */
  public int channels(String layer, int axis) {
    int a = axis(axis, x());
    int c = shape().dim(a);
    if (c < 0) {
      throw fail(
          Message.UNKNOWN_CHANNELS, "axis", where, layer, a, "the normalised axis", x().describe());
    }
    return c;
  }

  /**
   * The first input must be rank {@code rank}, laid out as {@code layout} (e.g. {@code [N, C, H,
   * W]}); a rank-2 input of square rows gets a hint that reshapes it into images.
   */
  public void requireRank(String layer, int rank, String layout) {
    TShape s = shape();
    if (s.rank() == rank) {
      return;
    }
    String hint = "";
    if (rank == 4 && s.rank() == 2 && s.dim(1) > 0) {
      int side = (int) Math.round(Math.sqrt(s.dim(1)));
      hint =
          side * side == s.dim(1)
              ? "; to read each row as a "
                  + side
                  + "x"
                  + side
                  + " image, reshape it first: "
                  + "@Reshape(shape = {BATCH, 1, "
                  + side
                  + ", "
                  + side
                  + "})"
              : "; reshape it first, e.g. @Reshape(shape = {BATCH, C, H, W})";
    }
    throw fail(
        Message.WRONG_RANK,
        null,
        where,
        layer,
        Integer.toString(rank),
        layout,
        x().describe(),
        hint);
  }
}
