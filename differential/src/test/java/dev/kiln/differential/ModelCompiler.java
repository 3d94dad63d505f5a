package dev.kiln.differential;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.kiln.processor.KilnProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/**
 * Compiles a {@link ModelCase}'s sources in the test JVM with javac and Kiln's annotation processor
 * (compile-testing), and loads the resulting classes with a class loader of their own whose parent
 * sees the runtime.
 */
final class ModelCompiler {
  private ModelCompiler() {}

  /** A compiled model: its class files by binary name and a loader over them. */
  record Compiled(
      ModelCase model, Map<String, byte[]> classes, ClassLoader loader, List<String> warnings) {
    /** Writes every class file under {@code root}, in its package's folder. */
    void writeClasses(Path root) {
      try {
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
          Path file = root.resolve(e.getKey().replace('.', '/') + ".class");
          Files.createDirectories(file.getParent());
          Files.write(file, e.getValue());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Thrown when javac or the processor rejects a model; the message holds every error. */
  static final class CompileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CompileException(String message) {
      super(message);
    }
  }

  /**
   * Compiles {@code model} with {@code -Xlint:all}; every error (the processor rejecting the model,
   * or generated code that does not compile) is a {@link CompileException}.
   */
  static Compiled compile(ModelCase model) {
    List<JavaFileObject> sources = new ArrayList<>();
    model
        .sources()
        .forEach((name, text) -> sources.add(JavaFileObjects.forSourceString(name, text)));
    Compiler javac =
        Compiler.javac()
            .withProcessors(new KilnProcessor())
            .withOptions("-Xlint:all", "-Xlint:-processing");
    if (!model.resources().isEmpty()) {
      javac = javac.withClasspath(classPathWith(model.resources()));
    }
    Compilation c = javac.compile(sources);
    if (c.status() != Compilation.Status.SUCCESS) {
      throw new CompileException(
          "javac with the Kiln processor rejected the model:\n"
              + c.errors().stream().map(ModelCompiler::describe).collect(Collectors.joining("\n")));
    }
    Map<String, byte[]> classes = new TreeMap<>();
    for (JavaFileObject f : c.generatedFiles()) {
      if (f.getKind() != JavaFileObject.Kind.CLASS) {
        continue;
      }
      String path = f.toUri().getPath();
      int at = path.indexOf("CLASS_OUTPUT/");
      String binary =
          path.substring(at + "CLASS_OUTPUT/".length(), path.length() - ".class".length())
              .replace('/', '.');
      try (InputStream in = f.openInputStream()) {
        classes.put(binary, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    List<String> warnings = c.warnings().stream().map(ModelCompiler::describe).toList();
    return new Compiled(model, classes, new BytesClassLoader(classes), warnings);
  }

  /**
   * This JVM's class path and a folder holding {@code resources} (written afresh), where the
   * processor finds the files an {@code @Imported} names.
   */
  private static List<java.io.File> classPathWith(Map<String, byte[]> resources) {
    List<java.io.File> path = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      path.add(new java.io.File(entry));
    }
    try {
      Path dir = Files.createTempDirectory("kiln-differential-resources");
      for (Map.Entry<String, byte[]> r : resources.entrySet()) {
        Path file = dir.resolve(r.getKey());
        Files.createDirectories(file.getParent());
        Files.write(file, r.getValue());
      }
      path.add(dir.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return path;
  }

  private static String describe(Diagnostic<? extends JavaFileObject> d) {
    String where =
        d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ";
    return where
        + d.getKind().toString().toLowerCase(java.util.Locale.ROOT)
        + ": "
        + d.getMessage(null);
  }

  /** Defines classes from bytes held in memory; everything else comes from the test's loader. */
  private static final class BytesClassLoader extends ClassLoader {
    static {
      registerAsParallelCapable();
    }

    private final Map<String, byte[]> classes;

    BytesClassLoader(Map<String, byte[]> classes) {
      super("kiln-generated", ModelCompiler.class.getClassLoader());
      this.classes = classes;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] bytes = classes.get(name);
      if (bytes == null) {
        throw new ClassNotFoundException(name);
      }
      return defineClass(name, bytes, 0, bytes.length);
    }
  }
}
