package dev.kiln.processor.read;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LiteralTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ParenthesizedTree;
import com.sun.source.tree.ReturnTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.UnaryTree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import dev.kiln.processor.diag.Spot;
import dev.kiln.processor.model.ForwardBody;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * What the source of a method says about its annotations where the {@code javax.lang.model} view
 * cannot: javac shows processors no annotation whose type it cannot resolve, so a misspelt layer
 * ({@code @Afine(out = 3)}) looks exactly like no annotation at all, and would be reported as
 * {@code MissingLayer} beside javac's own {@code cannot find symbol}. javac's tree API still has
 * it, on the method's modifiers, with an erroneous type; where that is so, the method is
 * unresolved, and the compiler's error is the only one.
 *
 * <p>This is the one place the processor uses {@code com.sun.source} (javac's public tree API,
 * exported by {@code jdk.compiler}; never javac's internal packages). It is available only in
 * javac's own processing environment: ecj has no trees (and shows unresolved annotations, so it
 * does not need them), and an environment that wraps javac's, as Gradle's incremental processing
 * does, makes {@link Trees#instance} throw {@code IllegalArgumentException}. There, and wherever
 * the trees cannot say, this class knows nothing, and the processor falls back to what it does
 * without it: a method that shows no layer annotation waits until the last round and is then
 * reported as {@code MissingLayer}, whose text says that an annotation the compiler could not
 * resolve may be the cause.
 *
 * <p>The trees also show a custom layer's forward body ({@link #forwardBody}), which the checker
 * then traces through the operator units' shape rules at compile time. Without them the body is
 * unchecked, and the graph build is the only check of it (the note {@code CustomBodyAtBuild} says
 * so, and why).
 */
public final class SourceAnnotations {
  /** javac's trees, or null where they are not available. */
  private final Trees trees;

  private SourceAnnotations(Trees trees) {
    this.trees = trees;
  }

  /** The source view of {@code env}: javac's trees, or none where {@code env} is not javac's. */
  public static SourceAnnotations of(ProcessingEnvironment env) {
    try {
      return new SourceAnnotations(Trees.instance(env));
    } catch (IllegalArgumentException | LinkageError e) {
      // Not javac's environment (ecj, or a wrapper such as Gradle's), or no jdk.compiler module.
      return none();
    }
  }

  /** A source view that knows nothing: the fallback. */
  public static SourceAnnotations none() {
    return new SourceAnnotations(null);
  }

  /** Whether javac's trees are available. */
  public boolean available() {
    return trees != null;
  }

  /**
   * The folder of the source file that declares {@code element}, or null where the trees cannot say
   * (not javac, or a source that is not a file).
   */
  public Path sourceFolder(Element element) {
    if (trees == null) {
      return null;
    }
    try {
      TreePath path = trees.getPath(element);
      if (path == null) {
        return null;
      }
      URI uri = path.getCompilationUnit().getSourceFile().toUri();
      return "file".equals(uri.getScheme()) ? Path.of(uri).getParent() : null;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The name, as written, of an annotation on {@code method} in its source whose type the compiler
   * could not resolve (and so hides from processors), or null: none, or none known.
   */
  public String unresolvedAnnotation(ExecutableElement method) {
    if (trees == null) {
      return null;
    }
    try {
      TreePath path = trees.getPath(method);
      if (path == null || !(path.getLeaf() instanceof MethodTree m)) {
        return null;
      }
      TreePath modifiers = new TreePath(path, m.getModifiers());
      for (AnnotationTree a : m.getModifiers().getAnnotations()) {
        Tree type = a.getAnnotationType();
        TypeMirror t = trees.getTypeMirror(new TreePath(new TreePath(modifiers, a), type));
        if (t != null && t.getKind() == TypeKind.ERROR) {
          return type.toString();
        }
      }
      return null;
    } catch (RuntimeException e) {
      // The trees could not say (a method from a class file, a compiler that differs): fall back.
      return null;
    }
  }

  /** Why a body is unchecked where the compiler shows no trees. */
  static final String NO_TREES =
      "this compiler shows annotation processors no method bodies; javac does";

  /** The operations of {@code Sym} a body may use, with what each takes after its receiver. */
  private static final Map<String, String> OPERATIONS =
      Map.ofEntries(
          Map.entry("dot", "sym"),
          Map.entry("add", "sym"),
          Map.entry("sub", "sym"),
          Map.entry("mul", "sym"),
          Map.entry("div", "sym"),
          Map.entry("batchDot", "sym,flag"),
          Map.entry("scale", "any"),
          Map.entry("activation", "any"),
          Map.entry("exp", ""),
          Map.entry("transpose", ""),
          Map.entry("sum", "int"),
          Map.entry("softmax", "int"),
          Map.entry("reshape", "ints"));

  /**
   * The body of {@code forward}, a custom layer's forward method whose {@code Sym} parameters are
   * {@code syms} (by name) and whose int parameters that take the layer's elements are {@code
   * elements}: its straight line of {@code Sym} operations, or, where it is more than that or the
   * compiler does not show it, an unchecked body that says why.
   */
  public ForwardBody forwardBody(
      ExecutableElement forward, List<String> syms, Set<String> elements) {
    if (trees == null) {
      return ForwardBody.unchecked(NO_TREES);
    }
    TreePath path;
    try {
      path = trees.getPath(forward);
    } catch (RuntimeException e) {
      path = null;
    }
    if (path == null || !(path.getLeaf() instanceof MethodTree m) || m.getBody() == null) {
      return ForwardBody.unchecked(
          "its forward method comes from a class file, whose body the compiler does not show");
    }
    List<String> names =
        forward.getParameters().stream().map(p -> p.getSimpleName().toString()).toList();
    return new BodyReader(path.getCompilationUnit(), syms, elements).read(m, names);
  }

  /** Reads one forward body; any construct beyond a line of {@code Sym} operations stops it. */
  private final class BodyReader {
    private final CompilationUnitTree unit;
    private final Map<String, ForwardBody.Operand> values = new HashMap<>();
    private final Set<String> elements;
    private final List<ForwardBody.Step> steps = new ArrayList<>();

    BodyReader(CompilationUnitTree unit, List<String> syms, Set<String> elements) {
      this.unit = unit;
      this.elements = elements;
      for (int i = 0; i < syms.size(); i++) {
        if (syms.get(i) != null) {
          values.put(syms.get(i), new ForwardBody.Arg(i));
        }
      }
    }

    ForwardBody read(MethodTree m, List<String> names) {
      List<? extends StatementTree> statements = m.getBody().getStatements();
      try {
        for (int i = 0; i < statements.size(); i++) {
          StatementTree st = statements.get(i);
          if (st instanceof VariableTree v
              && v.getInitializer() != null
              && isSym(v.getType())
              && !values.containsKey(v.getName().toString())) {
            values.put(v.getName().toString(), value(v.getInitializer()));
          } else if (st instanceof ReturnTree r
              && i == statements.size() - 1
              && r.getExpression() != null) {
            ForwardBody.Operand result = value(r.getExpression());
            return new ForwardBody(names, steps, result, spot(r), null);
          } else {
            throw new Unreadable(st);
          }
        }
        throw new Unreadable(m.getBody());
      } catch (Unreadable u) {
        String written = u.tree.toString().strip().replaceAll("\\s+", " ");
        if (written.length() > 60) {
          written = written.substring(0, 57) + "...";
        }
        return ForwardBody.unchecked(
            u.tree instanceof MethodInvocationTree
                ? "its body calls " + written + ", which is no operation of Sym"
                : "its body has " + written + ", more than a line of Sym operations");
      }
    }

    private boolean isSym(Tree type) {
      String t = type == null ? "var" : type.toString();
      return t.equals("Sym") || t.equals("dev.kiln.annotations.Sym") || t.equals("var");
    }

    private ForwardBody.Operand value(ExpressionTree e) {
      if (e instanceof ParenthesizedTree p) {
        return value(p.getExpression());
      }
      if (e instanceof IdentifierTree id && values.containsKey(id.getName().toString())) {
        return values.get(id.getName().toString());
      }
      if (e instanceof MethodInvocationTree call
          && call.getMethodSelect() instanceof MemberSelectTree select
          && OPERATIONS.containsKey(select.getIdentifier().toString())
          && call.getTypeArguments().isEmpty()) {
        String op = select.getIdentifier().toString();
        ForwardBody.Operand receiver = value(select.getExpression());
        List<? extends ExpressionTree> args = call.getArguments();
        String takes = OPERATIONS.get(op);
        ForwardBody.Operand other = null;
        List<String> ints = new ArrayList<>();
        boolean flag = false;
        switch (takes) {
          case "sym" -> {
            expect(call, args, 1);
            other = value(args.get(0));
          }
          case "sym,flag" -> {
            expect(call, args, 2);
            other = value(args.get(0));
            flag = flag(args.get(1));
          }
          case "int" -> {
            expect(call, args, 1);
            ints.add(integer(args.get(0)));
          }
          case "ints" -> {
            for (ExpressionTree a : args) {
              ints.add(integer(a));
            }
          }
          case "any" -> expect(call, args, 1);
          default -> expect(call, args, 0);
        }
        steps.add(new ForwardBody.Step(op, receiver, other, ints, flag, e.toString(), spot(call)));
        return new ForwardBody.Made(steps.size() - 1);
      }
      throw new Unreadable(e);
    }

    private void expect(Tree call, List<? extends ExpressionTree> args, int n) {
      if (args.size() != n) {
        throw new Unreadable(call);
      }
    }

    /** A boolean constant. */
    private boolean flag(ExpressionTree e) {
      Object v = constant(e);
      if (v instanceof Boolean b) {
        return b;
      }
      throw new Unreadable(e);
    }

    /** An int constant as a number, or the name of a parameter that takes a layer element. */
    private String integer(ExpressionTree e) {
      if (e instanceof IdentifierTree id && elements.contains(id.getName().toString())) {
        return id.getName().toString();
      }
      Object v = constant(e);
      if (v instanceof Integer i) {
        return i.toString();
      }
      throw new Unreadable(e);
    }

    /** The value of a compile-time constant: a literal, a negated one, or a constant field. */
    private Object constant(ExpressionTree e) {
      if (e instanceof ParenthesizedTree p) {
        return constant(p.getExpression());
      }
      if (e instanceof LiteralTree l) {
        return l.getValue();
      }
      if (e instanceof UnaryTree u && u.getKind() == Tree.Kind.UNARY_MINUS) {
        return constant(u.getExpression()) instanceof Integer i ? -i : null;
      }
      if (e instanceof IdentifierTree || e instanceof MemberSelectTree) {
        TreePath at = TreePath.getPath(unit, e);
        Element el = at == null ? null : trees.getElement(at);
        if (el instanceof VariableElement v) {
          return v.getConstantValue();
        }
      }
      return null;
    }

    private Spot spot(Tree tree) {
      return (messager, kind, text) -> trees.printMessage(kind, text, tree, unit);
    }
  }

  /** A construct of a body beyond a line of {@code Sym} operations. */
  private static final class Unreadable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Tree tree;

    Unreadable(Tree tree) {
      super(null, null, false, false);
      this.tree = tree;
    }
  }
}
