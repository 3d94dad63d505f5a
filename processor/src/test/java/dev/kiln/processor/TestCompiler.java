package dev.kiln.processor;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.annotation.processing.Processor;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.eclipse.jdt.internal.compiler.tool.EclipseCompiler;

/**
 * The two compilers every processor test runs under: javac, and the Eclipse compiler (ecj) that
 * IDEs use. Both compile real files in a scratch directory under {@code target/}, with Kiln (and
 * any other processors a test adds) running inside, and the generated sources compiled too, so a
 * test sees every diagnostic either compiler gives, on generated code as well.
 *
 * <p>Under javac, Kiln gets javac's own processing environment, as Maven's build gives it (with
 * javac's trees), and what it generates is recorded through the file manager; {@link
 * #compileWrapped} runs it in an environment that wraps javac's instead, as Gradle's incremental
 * processing does. Under ecj, Kiln's environment is always wrapped, to record what it generates.
 */
enum TestCompiler {
  /** javac, with every lint but {@code processing}, as the build compiles. */
  JAVAC {
    @Override
    JavaCompiler tool() {
      return ToolProvider.getSystemJavaCompiler();
    }

    @Override
    List<String> options() {
      return List.of("--release", "17", "-Xlint:all", "-Xlint:-processing", "-Xlint:-path");
    }
  },
  /** ecj, with its default warnings. */
  ECJ {
    @Override
    JavaCompiler tool() {
      return new EclipseCompiler();
    }

    @Override
    List<String> options() {
      return List.of("--release", "17");
    }
  };

  private static final Path RESOURCES = Path.of("src/test/resources");
  private static final Path SCRATCH = Path.of("target/kiln-tests");

  abstract JavaCompiler tool();

  abstract List<String> options();

  /** {@code name} as a source file under {@code src/test/resources}, e.g. {@code bad/Cycle}. */
  static Path resource(String name) {
    return RESOURCES.resolve(name + ".java");
  }

  /** Compiles {@code sources} (resource names) with Kiln and nothing else on the class path. */
  Result compile(String... sources) {
    return compile(
        List.of(), List.of(), List.of(sources).stream().map(TestCompiler::resource).toList());
  }

  /**
   * Compiles {@code sources} with {@code processors} running before Kiln, and {@code classPath}
   * before the test class path. No source path: a type is compiled only if it is given here.
   */
  Result compile(List<Processor> processors, List<Path> classPath, List<Path> sources) {
    Path dir = scratch();
    try {
      return compileIn(dir, processors, classPath, sources, false);
    } finally {
      delete(dir);
    }
  }

  /**
   * Compiles {@code sources} (resource names) with Kiln in a processing environment that wraps the
   * compiler's, as Gradle's incremental annotation processing runs processors: javac's trees are
   * not available there.
   */
  Result compileWrapped(String... sources) {
    Path dir = scratch();
    try {
      return compileIn(
          dir,
          List.of(),
          List.of(),
          List.of(sources).stream().map(TestCompiler::resource).toList(),
          true);
    } finally {
      delete(dir);
    }
  }

  /** Compiles {@code sources} into {@code classes} (kept), for a test's class path. */
  void compileLibrary(Path classes, List<Path> sources) {
    Path dir = scratch();
    try {
      Result r = compileIn(dir, List.of(), List.of(), sources, false);
      if (!r.succeeded()) {
        throw new AssertionError("library did not compile: " + r.diagnostics());
      }
      copy(dir.resolve("classes"), classes);
    } finally {
      delete(dir);
    }
  }

  private Result compileIn(
      Path dir,
      List<Processor> processors,
      List<Path> classPath,
      List<Path> sources,
      boolean wrapped) {
    JavaCompiler compiler = tool();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean javacsOwn = this == JAVAC && !wrapped;
    RecordingProcessor recorded = javacsOwn ? null : new RecordingProcessor();
    List<RecordingProcessor> others = processors.stream().map(RecordingProcessor::new).toList();
    List<String> sourceOutputs = new ArrayList<>();
    try (StandardJavaFileManager files =
        compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      Path gen = Files.createDirectories(dir.resolve("gen"));
      Path classes = Files.createDirectories(dir.resolve("classes"));
      Path empty = Files.createDirectories(dir.resolve("sourcepath"));
      List<Path> path = new ArrayList<>(classPath);
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        path.add(Path.of(entry));
      }
      files.setLocationFromPaths(StandardLocation.SOURCE_OUTPUT, List.of(gen));
      files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(classes));
      files.setLocationFromPaths(StandardLocation.SOURCE_PATH, List.of(empty));
      files.setLocationFromPaths(StandardLocation.CLASS_PATH, path);
      JavaFileManager manager = javacsOwn ? new SourceOutputs(files, sourceOutputs) : files;
      JavaCompiler.CompilationTask task =
          compiler.getTask(
              new StringWriter(),
              manager,
              diagnostics,
              options(),
              null,
              files.getJavaFileObjectsFromPaths(sources));
      List<Processor> all = new ArrayList<>(others);
      all.add(javacsOwn ? new KilnProcessor() : recorded);
      task.setProcessors(all);
      boolean ok = task.call();
      List<String> created;
      if (javacsOwn) {
        created = new ArrayList<>(sourceOutputs);
        others.forEach(o -> created.removeAll(o.createdSourceFiles()));
      } else {
        created = recorded.createdSourceFiles();
      }
      Map<String, String> generated = new LinkedHashMap<>();
      for (String name : created) {
        Path file = gen.resolve(name.replace('.', '/') + ".java");
        generated.put(name, Files.exists(file) ? Files.readString(file) : null);
      }
      List<Result.Diag> diags = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
        diags.add(
            new Result.Diag(
                d.getKind(),
                d.getSource() == null
                    ? null
                    : Path.of(d.getSource().toUri()).toAbsolutePath().normalize(),
                d.getLineNumber(),
                d.getMessage(Locale.ROOT)));
      }
      return new Result(this, ok, diags, generated);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** javac's file manager, recording the name of every source file a processor creates. */
  private static final class SourceOutputs
      extends ForwardingJavaFileManager<StandardJavaFileManager> {
    private final List<String> created;

    SourceOutputs(StandardJavaFileManager files, List<String> created) {
      super(files);
      this.created = created;
    }

    @Override
    public JavaFileObject getJavaFileForOutput(
        Location location, String className, JavaFileObject.Kind kind, FileObject sibling)
        throws IOException {
      if (location == StandardLocation.SOURCE_OUTPUT && kind == JavaFileObject.Kind.SOURCE) {
        created.add(className);
      }
      return super.getJavaFileForOutput(location, className, kind, sibling);
    }
  }

  private static Path scratch() {
    try {
      return Files.createTempDirectory(Files.createDirectories(SCRATCH), "compile-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copy(Path from, Path to) {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
