package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.NameAllocator;
import dev.kiln.annotations.ParamInit;
import dev.kiln.processor.model.CustomCall;
import java.util.ArrayList;
import java.util.List;

/**
 * A custom layer's node method body: one local per parameter, made by the builder, then one traced
 * call of its forward method, e.g. {@code return this.builder.custom(SCORES_SOURCE, "Affine",
 * PIXELS_SHAPE, SCORES_SHAPE, pixels, List.of(weight, bias), (input, params) ->
 * Affine.Forward.apply(input, params.get(0), params.get(1)));}. A recurrent cell calls {@code
 * this.builder.cell} instead, whose forward also takes the previous state: {@code (input, state,
 * params) -> GruCell.Step.apply(input, state, params.get(0), ...)}.
 */
final class CustomCallFormatter {
  /** A forward call up to this length stays on the lambda's line. */
  private static final int FORWARD_LINE = 88;

  /** A parameter list up to this length stays on one line. */
  private static final int PARAMS_LINE = 60;

  private final GeneratedNames names;
  private final String src;
  private final List<String> in;

  CustomCallFormatter(GeneratedNames names, String src, List<String> in) {
    this.names = names;
    this.src = src;
    this.in = in;
  }

  /** The statements for {@code c} on node {@code node}. */
  CodeBlock format(CustomCall c, String node) {
    NameAllocator locals = new NameAllocator();
    in.forEach(locals::newName);
    String input = locals.newName("input");
    String state = c.cell() ? locals.newName("state") : null;
    String params = locals.newName("params");
    CodeBlock.Builder body = CodeBlock.builder();
    List<String> made = new ArrayList<>();
    for (CustomCall.Param p : c.params()) {
      String local = locals.newName(p.local());
      made.add(local);
      body.add(paramStatement(local, p));
    }
    List<String> args = new ArrayList<>();
    args.add(input);
    if (state != null) {
      args.add(state);
    }
    for (CustomCall.ForwardArg a : c.args()) {
      args.add(a.param() >= 0 ? params + ".get(" + a.param() + ")" : a.literal());
    }
    String lambda = "(" + input + (state == null ? "" : ", " + state) + ", " + params + ")";
    ClassName forwardType = ClassName.get(c.forwardType());
    String call =
        String.join(".", forwardType.simpleNames())
            + "."
            + c.forwardMethod()
            + "("
            + String.join(", ", args)
            + ")";
    boolean oneLine = lambda.length() + call.length() + 4 <= FORWARD_LINE;
    CodeBlock forward =
        CodeBlock.of(
            "$L ->$W$T.$L($L)",
            lambda,
            forwardType,
            c.forwardMethod(),
            oneLine ? String.join(", ", args) : commas(args));
    String list = String.join(", ", made);
    Object listed = list.length() <= PARAMS_LINE ? list : commas(made);
    // The forward pass gets a line of its own, as a reader would write it.
    CodeBlock patterns =
        c.cell()
            ? CodeBlock.of("$L,$W$L", pattern(c.inputPattern()), pattern(c.statePattern()))
            : pattern(c.inputPattern());
    return body.addStatement(
            "return this.builder.$L($Z$L,$W$L,$W$L,$W$L,$W$L,$W$L,$W$T.of($L),\n$L)",
            c.cell() ? "cell" : "custom",
            src,
            Literals.string(c.layer()),
            patterns,
            names.shape(c.input()),
            names.shape(node),
            in.get(0),
            List.class,
            listed,
            forward)
        .build();
  }

  /**
   * {@code Sym weight = this.builder.customParam(SRC, "weight", W_SHAPE, List.of("in", "out"),
   * ParamInit.MODEL);}, with the value after the init for {@code CONSTANT}: on one line if it fits,
   * else wrapped after the commas.
   */
  private CodeBlock paramStatement(String local, CustomCall.Param p) {
    String shape = names.shape(p.name());
    CodeBlock pattern = pattern(p.pattern());
    CodeBlock init =
        p.init() == ParamInit.CONSTANT
            ? CodeBlock.of(
                "$T.$L, $L", Names.PARAM_INIT, p.init().name(), Literals.decimal(p.value()))
            : CodeBlock.of("$T.$L", Names.PARAM_INIT, p.init().name());
    String call =
        "Sym "
            + local
            + " = this.builder.customParam("
            + src
            + ", \""
            + p.role()
            + "\", "
            + shape
            + ", "
            + pattern.toString().replace("java.util.", "")
            + ", "
            + init.toString().replace("dev.kiln.annotations.", "")
            + ");";
    String format =
        4 + call.length() <= Javadoc.LIMIT
            ? "$T $N = this.builder.customParam($L, $S, $L, $L, $L)"
            : "$T $N = this.builder.customParam($L,$W$S,$W$L,$W$L,$W$L)";
    return CodeBlock.builder()
        .addStatement(format, Names.SYM, local, src, p.role(), shape, pattern, init)
        .build();
  }

  /** {@code List.of("batch", "in")}: a shape pattern as the runtime takes it. */
  private static CodeBlock pattern(List<String> tokens) {
    return CodeBlock.of(
        "$T.of($L)",
        List.class,
        CodeBlock.join(tokens.stream().map(t -> CodeBlock.of("$S", t)).toList(), ", "));
  }

  /** {@code a, b, c} with a wrapping point after each comma. */
  private static CodeBlock commas(List<String> items) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (int i = 0; i < items.size(); i++) {
      b.add(i == 0 ? "$L" : ",$W$L", items.get(i));
    }
    return b.build();
  }
}
