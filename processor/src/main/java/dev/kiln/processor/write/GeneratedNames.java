package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.NameAllocator;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.ParamInfo;
import java.util.LinkedHashMap;
import java.util.Map;

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
  private final Map<String, String> shapeConstants = new LinkedHashMap<>();
  private final Map<String, String> sourceConstants = new LinkedHashMap<>();

  /** Allocates the names for {@code m}. */
  GeneratedNames(CheckedModel m) {
    String pkg = m.packageName();
    this.iface = ClassName.get(m.spec().element());
    this.graph = ClassName.get(pkg, m.name() + "Graph");
    this.model = ClassName.get(pkg, m.name() + "Model");
    this.exec = ClassName.get(pkg, m.name() + "Exec");
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

  /** The graph's constant for the shape of node, parameter or auxiliary state {@code name}. */
  String shape(String name) {
    return shapeConstants.get(name);
  }

  /** The graph's constant for where node {@code node} was declared. */
  String source(String node) {
    return sourceConstants.get(node);
  }
}
