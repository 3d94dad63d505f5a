package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.CustomCall;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of one node method of {@code XGraph}: the node's {@link NodeCall}, as the check phase
 * planned it, written out: {@code return this.builder.dense(HIDDEN_SOURCE, pixels,
 * DenseOp.units(128).activation(Act.RELU));}, with wrapping points where a reader would break the
 * line. It decides nothing about the node.
 */
final class CallFormatter {
  /** A spec chain up to this length stays on one line. */
  private static final int ONE_LINE = 80;

  private final GeneratedNames names;
  private final CheckedNode node;
  private final String src;
  private final List<String> in;

  /** The formatter for {@code node}, whose method parameters are {@code in}. */
  CallFormatter(GeneratedNames names, CheckedNode node, List<String> in) {
    this.names = names;
    this.node = node;
    this.src = names.source(node.name());
    this.in = in;
  }

  /** The statements of the node method after any {@code freeze}. */
  CodeBlock body() {
    if (node.call() instanceof CustomCall c) {
      return new CustomCallFormatter(names, src, in).format(c, node.name());
    }
    return CodeBlock.builder().addStatement("return $L", expression()).build();
  }

  /**
   * {@code this.builder.<method>(SRC, <args>)}, each argument a wrapping point: the call of a
   * built-in op as an expression.
   */
  CodeBlock expression() {
    NodeCall.Builder call = (NodeCall.Builder) node.call();
    CodeBlock.Builder b = CodeBlock.builder().add("this.builder.$L($Z$L", call.method(), src);
    for (NodeCall.Arg a : call.args()) {
      if (a instanceof NodeCall.Inputs) {
        in.forEach(name -> b.add(",$W$L", name));
      } else {
        b.add(",$W").add(arg(a));
      }
    }
    return b.add(")").build();
  }

  /** One argument as Java source. */
  private CodeBlock arg(NodeCall.Arg a) {
    if (a instanceof NodeCall.Input i) {
      return CodeBlock.of("$L", in.get(i.index()));
    } else if (a instanceof NodeCall.Inputs) {
      return CodeBlock.of("$L", String.join(", ", in));
    } else if (a instanceof NodeCall.ShapeOf s) {
      return CodeBlock.of("$L", names.shape(s.name()));
    } else if (a instanceof NodeCall.Int i) {
      return i.batch() && i.value() == -1 ? names.batch : CodeBlock.of("$L", i.value());
    } else if (a instanceof NodeCall.Decimal d) {
      return CodeBlock.of("$L", Literals.decimal(d.value()));
    } else if (a instanceof NodeCall.Bool b) {
      return CodeBlock.of("$L", b.value());
    } else if (a instanceof NodeCall.Activation act) {
      return CodeBlock.of("$T.$L", Names.ACT, act.act().name());
    } else if (a instanceof NodeCall.Constant c) {
      return CodeBlock.of("$T.$L", ClassName.get(c.value().getDeclaringClass()), c.value().name());
    } else {
      return chain((NodeCall.Chain) a);
    }
  }

  /**
   * A spec builder chain, {@code DenseOp.units(128).activation(Act.RELU)}: kept on one line unless
   * it is too long for one, when it breaks before a method.
   */
  private CodeBlock chain(NodeCall.Chain chain) {
    ClassName type = ClassName.get(chain.type());
    List<CodeBlock> calls = new ArrayList<>();
    int length = type.simpleName().length();
    for (int i = 0; i < chain.links().size(); i++) {
      NodeCall.Link link = chain.links().get(i);
      CodeBlock args = arguments(link.args());
      if (i == 0) {
        calls.add(CodeBlock.of("$T.$L($L)", type, link.method(), args));
      } else {
        CodeBlock call = CodeBlock.of(".$L($L)", link.method(), args);
        calls.add(call);
        length += call.toString().replace("dev.kiln.annotations.", "").length();
      }
    }
    CodeBlock.Builder b = CodeBlock.builder();
    for (int i = 0; i < calls.size(); i++) {
      b.add(i > 0 && length > ONE_LINE ? "$Z$L" : "$L", calls.get(i));
    }
    return b.build();
  }

  /** {@code 5, 5}: a call's arguments, comma-separated. */
  private CodeBlock arguments(List<NodeCall.Arg> args) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (int i = 0; i < args.size(); i++) {
      b.add(i == 0 ? "$L" : ", $L", arg(args.get(i)));
    }
    return b.build();
  }
}
