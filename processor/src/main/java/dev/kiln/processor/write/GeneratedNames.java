package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.NameAllocator;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.ElementFilter;

/**
 * The names the three generated classes share: the classes themselves and the graph's constants,
 * allocated once per model through JavaPoet's {@link NameAllocator} so that user-derived names
 * never collide.
 */
final class GeneratedNames {
  final ClassName iface;
  final ClassName graph;
  final ClassName model;
  final ClassName exec;

  /**
   * How the graph writes {@code Dim.BATCH}: {@code BATCH}, statically imported, unless the model
   * (which the graph implements) has a field of that name, which would shadow the import.
   */
  final CodeBlock batch;

  /** Whether {@link #batch} needs the static import. */
  final boolean importBatch;

  private final Map<String, String> shapeConstants = new LinkedHashMap<>();
  private final Map<String, String> sourceConstants = new LinkedHashMap<>();

  /** Allocates the names for {@code m}. */
  GeneratedNames(CheckedModel m) {
    String pkg = m.packageName();
    this.iface = ClassName.get(m.spec().element());
    this.graph = ClassName.get(pkg, m.name() + "Graph");
    this.model = ClassName.get(pkg, m.name() + "Model");
    this.exec = ClassName.get(pkg, m.name() + "Exec");
    boolean shadowed = hasField(m.spec().element(), "BATCH");
    // A model whose shapes have no BATCH (unusual, but legal) imports nothing it does not use.
    this.importBatch = !shadowed && m.nodes().stream().anyMatch(n -> n.shape().hasBatch());
    this.batch = shadowed ? CodeBlock.of("$T.BATCH", Names.DIM) : CodeBlock.of("BATCH");
    NameAllocator constants = new NameAllocator();
    constants.newName("builder");
    for (CheckedNode n : m.nodes()) {
      shapeConstants.put(n.name(), constants.newName(Names.constant(n.name()) + "_SHAPE"));
      for (ParamInfo p : n.params()) {
        shapeConstants.put(p.name(), constants.newName(Names.constant(p.name()) + "_SHAPE"));
      }
      for (ParamInfo a : n.aux()) {
        shapeConstants.put(a.name(), constants.newName(Names.constant(a.name()) + "_SHAPE"));
      }
    }
    for (CheckedNode n : m.nodes()) {
      sourceConstants.put(n.name(), constants.newName(Names.constant(n.name()) + "_SOURCE"));
    }
  }

  /** Whether {@code type} or an interface it extends declares a field {@code name}. */
  private static boolean hasField(TypeElement type, String name) {
    if (ElementFilter.fieldsIn(type.getEnclosedElements()).stream()
        .anyMatch(f -> f.getSimpleName().contentEquals(name))) {
      return true;
    }
    return type.getInterfaces().stream()
        .map(t -> ((DeclaredType) t).asElement())
        .anyMatch(e -> hasField((TypeElement) e, name));
  }

  /** The graph's constant for the shape of node, parameter or auxiliary state {@code name}. */
  String shape(String name) {
    return shapeConstants.get(name);
  }

  /** The graph's constant for where node {@code node} was declared. */
  String source(String node) {
    return sourceConstants.get(node);
  }
}
