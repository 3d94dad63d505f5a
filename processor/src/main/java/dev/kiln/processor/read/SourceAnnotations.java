package dev.kiln.processor.read;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.TreePath;
import com.sun.source.util.Trees;
import java.net.URI;
import java.nio.file.Path;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
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
}
