package dev.kiln.processor.op;

import dev.kiln.annotations.ParamInit;
import dev.kiln.names.NodeNames;
import dev.kiln.ops.Op;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.model.CustomCall;
import dev.kiln.processor.model.ForwardBody;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;

/**
 * A custom layer: an annotation type annotated {@code @Layer}, used like a built-in, whose forward
 * method is traced when the graph is built. Its contract (input, output and parameter shape
 * patterns) is checked here; its body against the contract when it is traced.
 *
 * @param layerName the layer annotation's simple name, e.g. {@code Affine}
 * @param forwardType the class holding the forward method
 * @param forwardMethod the forward method's name
 * @param input the input's shape pattern
 * @param output the output's shape pattern
 * @param state a recurrent cell's state pattern; empty for a layer without state
 * @param dims the layer's int elements as written where it is used (dimension values)
 * @param params the layer's parameters, in the forward method's order
 * @param args the forward method's arguments after the input (and a cell's state), in order
 * @param body the forward method's body as the compiler shows it, traced here where it can be
 */
public record CustomOp(
    String layerName,
    TypeElement forwardType,
    String forwardMethod,
    List<String> input,
    List<String> output,
    List<String> state,
    Map<String, Integer> dims,
    List<CustomParam> params,
    List<CustomCall.ForwardArg> args,
    ForwardBody body)
    implements Op {
  /** Copies the collections, keeping the order of {@code dims}. */
  public CustomOp {
    input = List.copyOf(input);
    output = List.copyOf(output);
    state = List.copyOf(state);
    dims = Collections.unmodifiableMap(new LinkedHashMap<>(dims));
    params = List.copyOf(params);
    args = List.copyOf(args);
    java.util.Objects.requireNonNull(body, "body");
  }

  /**
   * A parameter of a custom layer.
   *
   * @param name its name in the forward method, e.g. {@code gateWeight}
   * @param role its part of the MXNet name {@code <node>_<role>}: the name in snake case, e.g.
   *     {@code gate_weight}
   * @param shape its shape pattern
   * @param init how it starts
   * @param value where it starts, with {@code init} {@code CONSTANT}
   * @param element the forward method's parameter that declares it
   * @param mirror its {@code @Param}
   */
  public record CustomParam(
      String name,
      String role,
      List<String> shape,
      ParamInit init,
      double value,
      VariableElement element,
      AnnotationMirror mirror) {
    /** Copies the pattern. */
    public CustomParam {
      shape = List.copyOf(shape);
    }
  }

  @Override
  public String annotation() {
    return layerName;
  }

  /**
   * Whether the layer is a recurrent cell: its forward pass is one step, unrolled over the input
   * sequence's steps.
   */
  boolean cell() {
    return !state.isEmpty();
  }

  @Override
  public String mxnetOp() {
    return cell() ? "custom cell " + layerName + ", unrolled" : "custom " + layerName;
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public Optional<TracedBody> tracedBody() {
    return Optional.of(new TracedBody(layerName, forward(), cell(), body.unchecked()));
  }

  /** The forward method as source names it, e.g. {@code Affine.Forward.apply}. */
  private String forward() {
    String forward = forwardType.getSimpleName() + "." + forwardMethod;
    for (Element e = forwardType.getEnclosingElement();
        e instanceof TypeElement t;
        e = t.getEnclosingElement()) {
      forward = t.getSimpleName() + "." + forward;
    }
    return forward;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The layer's dimensions are checked as it is read.
  }

  /**
   * A custom layer's contract: the input must match the layer's input pattern (numbers exactly,
   * each name consistently, names that are layer elements to their written values); the output and
   * parameter shapes are the patterns with every name replaced by its value. Where the compiler
   * shows the body ({@link ForwardBody#checked()}), it is traced here with those shapes ({@link
   * BodyTrace}), and a broken rule is a {@link dev.kiln.processor.model.BodyError}; the graph build
   * traces it again in any case.
   *
   * <p>A recurrent cell's input pattern is one step's: the node reads that pattern with the steps,
   * a constant or {@code STEPS}, inserted after its first dimension, and its output is the state
   * pattern with the same steps inserted, every step's state.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    List<String> tokens = new ArrayList<>(input);
    if (cell()) {
      tokens.add(Math.min(1, tokens.size()), "steps");
    }
    String pattern = "[" + String.join(", ", tokens) + "]";
    TShape s = site.shape();
    if (s.rank() != tokens.size()) {
      throw site.fail(
          Message.CUSTOM_INPUT,
          null,
          site.where(),
          layerName,
          pattern,
          site.x().describe(),
          "the ranks differ"
              + (cell()
                  ? "; a cell reads a sequence, one "
                      + "step of ["
                      + String.join(", ", input)
                      + "] at a time, with the steps after "
                      + "the first dimension"
                  : ""));
    }
    if (cell()) {
      checkCellSteps(site, s);
    }
    Map<String, Integer> bound = new LinkedHashMap<>(dims);
    for (int i = 0; i < s.rank(); i++) {
      if (cell() && i == 1) {
        continue;
      }
      String t = tokens.get(i);
      int actual = s.dim(i);
      Integer want = Character.isDigit(t.charAt(0)) ? Integer.valueOf(t) : bound.get(t);
      if (want == null) {
        bound.put(t, actual);
      } else if (want != actual) {
        throw site.fail(
            Message.CUSTOM_INPUT,
            null,
            site.where(),
            layerName,
            pattern,
            site.x().describe(),
            "dimension " + i + " ('" + t + "') must be " + (want < 0 ? "BATCH" : want.toString()));
      }
    }
    TShape out;
    if (cell()) {
      List<Integer> states = new ArrayList<>(resolve(site, state, "its state", bound).dims());
      states.add(Math.min(1, states.size()), s.dim(1));
      out = new TShape(states);
    } else {
      out = resolve(site, output, "its output", bound);
    }
    List<ParamInfo> made = new ArrayList<>();
    List<TShape> paramShapes = new ArrayList<>();
    for (CustomParam p : params) {
      TShape shape = resolve(site, p.shape(), "parameter " + p.name(), bound);
      if (shape.hasBatch()) {
        throw site.fail(Message.CUSTOM_PARAM_BATCH, null, site.where(), p.name(), layerName, shape);
      }
      made.add(site.param(p.role(), shape));
      paramShapes.add(shape);
    }
    if (body.checked()) {
      TShape step = cell() ? withoutSteps(s) : s;
      TShape stateShape = cell() ? withoutSteps(out) : null;
      new BodyTrace(this, site, forward(), input, step, stateShape, paramShapes)
          .run(
              body,
              cell() ? stateShape : out,
              cell()
                  ? "state [" + String.join(", ", state) + "]"
                  : "output [" + String.join(", ", output) + "]");
    }
    return new Inferred(out, made, List.of());
  }

  /**
   * A cell's steps must be a constant or {@code STEPS}, the executor's bound length, and no other
   * dimension may be {@code STEPS}: one step's input, the state and the parameters are shaped
   * without the steps. A {@code BATCH} there is a length no input gives directly (a reshape or a
   * concatenation of sequences makes one), which no graph could be unrolled for.
   */
  private void checkCellSteps(ShapeSite site, TShape s) {
    if (s.dim(1) == TShape.BATCH) {
      throw site.fail(
          Message.CELL_STEPS,
          null,
          site.where(),
          layerName,
          site.x().describe(),
          "its steps (dimension 1) are BATCH, a size that is not an input's Dim.STEPS (joining "
              + "or reshaping sequences gives one), so no number of steps to unroll over is "
              + "known");
    }
    for (int i = 0; i < s.rank(); i++) {
      if (i != 1 && s.dim(i) == TShape.STEPS) {
        throw site.fail(
            Message.CELL_STEPS,
            null,
            site.where(),
            layerName,
            site.x().describe(),
            "dimension "
                + i
                + " is Dim.STEPS, so one step's input would depend on the number "
                + "of steps");
      }
    }
  }

  /** {@code [N, steps, d...]} without its steps: one step's {@code [N, d...]}. */
  private static TShape withoutSteps(TShape s) {
    List<Integer> dims = new ArrayList<>(s.dims());
    dims.remove(1);
    return new TShape(dims);
  }

  private TShape resolve(
      ShapeSite site, List<String> pattern, String what, Map<String, Integer> bound) {
    List<Integer> dims = new ArrayList<>();
    for (String t : pattern) {
      if (Character.isDigit(t.charAt(0))) {
        dims.add(Integer.valueOf(t));
      } else if (bound.containsKey(t)) {
        dims.add(bound.get(t));
      } else {
        throw site.fail(
            Message.CUSTOM_UNBOUND,
            null,
            site.where(),
            layerName,
            t,
            what,
            layerName,
            "[" + String.join(", ", input) + "]");
      }
    }
    return new TShape(dims);
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return -1; // the body is traced only when the graph is built
  }

  @Override
  public NodeCall call(CallSite site) {
    List<CustomCall.Param> made = new ArrayList<>();
    for (CustomParam p : params) {
      made.add(
          new CustomCall.Param(
              p.name(),
              p.role(),
              NodeNames.of(site.node(), p.role()),
              p.shape(),
              p.init(),
              p.value()));
    }
    return new CustomCall(
        layerName,
        cell(),
        site.sources().get(0),
        input,
        state,
        made,
        forwardType,
        forwardMethod,
        args);
  }
}
