package dev.kiln.processor.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Frozen;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Output;
import dev.kiln.ops.OpReader;
import dev.kiln.ops.Ops;
import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Target;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reading half of "an operator is one unit": the compiler makes every op implement every phase
 * ({@link dev.kiln.ops.Op} has no defaults for them); this checks that every layer annotation of
 * {@code dev.kiln.annotations} is registered in {@link Ops} with a reader that names its
 * attributes.
 */
class LayerCatalogTest {
  /**
   * Method annotations that modify a node rather than make one; {@code @Imported}, whose nodes are
   * those of its file, each read into the op of a built-in layer ({@code FileOps}); and
   * {@code @Block}, which writes another model's nodes into the model (read by {@link
   * BlockReader}).
   */
  private static final Set<Class<?>> MODIFIERS =
      Set.of(Output.class, Frozen.class, Imported.class, dev.kiln.annotations.Block.class);

  @Test
  void everyLayerAnnotationHasAReader() throws Exception {
    Set<String> layers = new TreeSet<>();
    for (Class<?> c : annotationTypes()) {
      Target target = c.getAnnotation(Target.class);
      if (target != null
          && Arrays.asList(target.value()).contains(ElementType.METHOD)
          && !MODIFIERS.contains(c)) {
        layers.add(c.getSimpleName());
      }
    }
    Set<String> read =
        Ops.ALL.stream()
            .map(l -> l.annotation().getSimpleName())
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(layers, read);
    assertEquals(read.size(), Ops.ALL.size(), "one reader per annotation");
  }

  @Test
  void everyBuiltInLayerNamesItsAttributesInDeclarationOrderOfItsAnnotation() {
    for (OpReader<?> l : Ops.ALL) {
      Set<String> declared =
          Arrays.stream(l.annotation().getDeclaredMethods())
              .map(m -> m.getName())
              .collect(Collectors.toCollection(TreeSet::new));
      assertEquals(declared, new TreeSet<>(l.attributes()), l.annotation().getSimpleName());
    }
  }

  /** Every annotation type in the package of {@code @Dense}, from its jar or directory. */
  private static List<Class<?>> annotationTypes() throws IOException, URISyntaxException {
    Path root = Path.of(Dense.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    FileSystem jar = Files.isDirectory(root) ? null : FileSystems.newFileSystem(root);
    try {
      Path dir = (jar == null ? root : jar.getPath("/")).resolve("dev/kiln/annotations");
      try (Stream<Path> files = Files.list(dir)) {
        return files
            .map(p -> p.getFileName().toString())
            .filter(n -> n.endsWith(".class") && !n.contains("$"))
            .<Class<?>>map(n -> load("dev.kiln.annotations." + n.substring(0, n.length() - 6)))
            .filter(Class::isAnnotation)
            .sorted((a, b) -> a.getName().compareTo(b.getName()))
            .toList();
      }
    } finally {
      if (jar != null) {
        jar.close();
      }
    }
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }
}
