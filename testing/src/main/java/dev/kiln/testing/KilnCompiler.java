package dev.kiln.testing;

import dev.kiln.processor.KilnProcessor;
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
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Compiles model sources with Kiln's processor inside a test, the way a build does: javac (the
 * running JDK's), Kiln's processor and no other, the test's own class path (which holds {@code
 * kiln-annotations}, {@code kiln-runtime} and whatever else the models use), {@code -Xlint:all},
 * and the generated sources compiled too. Nothing is written outside a temporary directory, which
 * is deleted before {@link #compile} returns.
 *
 * <pre>{@code
 * Compilation c = KilnCompiler.compile(Path.of("src/main/java/demo/FashionMlp.java"));
 * c.assertClean();
 * assertArrayEquals(new int[] {Dim.BATCH, 128}, c.model("FashionMlp").shape("hidden"));
 *
 * KilnCompiler.compile("demo/Broken.java", source).assertFails("ShapeMismatch", 9);
 * }</pre>
 */
public final class KilnCompiler {
  private final List<Path> classPath;
  private final List<String> options;

  private KilnCompiler(List<Path> classPath, List<String> options) {
    this.classPath = List.copyOf(classPath);
    this.options = List.copyOf(options);
  }

  /**
   * Returns a compiler with the test's class path and the default options.
   *
   * @return a compiler to configure further or to {@link #compile} with
   */
  public static KilnCompiler javac() {
    return new KilnCompiler(List.of(), List.of());
  }

  /**
   * Compiles source files with the defaults of {@link #javac()}.
   *
   * @param sources {@code .java} files, e.g. under {@code src/main/java}
   * @return the outcome
   */
  public static Compilation compile(Path... sources) {
    return javac().compileFiles(List.of(sources));
  }

  /**
   * Compiles one source given as text with the defaults of {@link #javac()}.
   *
   * @param fileName its path relative to a source root, e.g. {@code demo/Broken.java}; line numbers
   *     in diagnostics count from the text's first line
   * @param text the source
   * @return the outcome
   */
  public static Compilation compile(String fileName, String text) {
    return javac().compileSource(fileName, text);
  }

  /**
   * Returns this compiler with more class path entries, searched before the test's own.
   *
   * @param entries jars or class directories
   * @return a new compiler
   */
  public KilnCompiler withClassPath(Path... entries) {
    List<Path> all = new ArrayList<>(classPath);
    all.addAll(List.of(entries));
    return new KilnCompiler(all, options);
  }

  /**
   * Returns this compiler with more javac options, e.g. {@code --release 17} or {@code
   * -Xlint:-deprecation}.
   *
   * @param more options, after the defaults
   * @return a new compiler
   */
  public KilnCompiler withOptions(String... more) {
    List<String> all = new ArrayList<>(options);
    all.addAll(List.of(more));
    return new KilnCompiler(classPath, all);
  }

  /**
   * Compiles one source given as text.
   *
   * @param fileName its path relative to a source root, e.g. {@code demo/Broken.java}
   * @param text the source
   * @return the outcome
   */
  public Compilation compileSource(String fileName, String text) {
    Path dir = scratch();
    try {
      Path file = dir.resolve("src").resolve(fileName);
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
      return compileIn(dir, List.of(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(dir);
    }
  }

  /**
   * Compiles source files together.
   *
   * @param sources {@code .java} files
   * @return the outcome
   */
  public Compilation compileFiles(List<Path> sources) {
    for (Path source : sources) {
      if (!Files.isRegularFile(source)) {
        throw new IllegalArgumentException(source.toAbsolutePath() + " is not a source file");
      }
    }
    Path dir = scratch();
    try {
      return compileIn(dir, sources);
    } finally {
      delete(dir);
    }
  }

  private Compilation compileIn(Path dir, List<Path> sources) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException(
          "no system Java compiler: run the tests on a JDK, not a " + "JRE");
    }
    DiagnosticCollector<JavaFileObject> collector = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(collector, Locale.ROOT, StandardCharsets.UTF_8)) {
      Path gen = Files.createDirectories(dir.resolve("gen"));
      Path classes = Files.createDirectories(dir.resolve("classes"));
      Path noSources = Files.createDirectories(dir.resolve("sourcepath"));
      List<Path> path = new ArrayList<>(classPath);
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        if (!entry.isEmpty()) {
          path.add(Path.of(entry));
        }
      }
      files.setLocationFromPaths(StandardLocation.SOURCE_OUTPUT, List.of(gen));
      files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(classes));
      files.setLocationFromPaths(StandardLocation.SOURCE_PATH, List.of(noSources));
      files.setLocationFromPaths(StandardLocation.CLASS_PATH, path);
      List<String> all =
          new ArrayList<>(
              List.of(
                  "-Xlint:all",
                  "-Xlint:-processing",
                  "-Xlint:-path",
                  "-Xlint:-options",
                  "-A" + DESCRIBE));
      all.addAll(options);
      JavaCompiler.CompilationTask task =
          javac.getTask(
              new StringWriter(),
              files,
              collector,
              all,
              null,
              files.getJavaFileObjectsFromPaths(sources));
      task.setProcessors(List.of(new KilnProcessor()));
      boolean ok = task.call();
      List<KilnDiagnostic> diagnostics = new ArrayList<>();
      for (Diagnostic<? extends JavaFileObject> d : collector.getDiagnostics()) {
        String message = d.getMessage(Locale.ROOT);
        diagnostics.add(
            new KilnDiagnostic(
                d.getKind(),
                KilnDiagnostic.idOf(message),
                d.getSource() == null
                    ? null
                    : Path.of(d.getSource().toUri()).toAbsolutePath().normalize(),
                d.getLineNumber() == Diagnostic.NOPOS ? -1 : d.getLineNumber(),
                message));
      }
      return new Compilation(ok, diagnostics, read(gen, ".java", true), models(classes));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The option that makes the processor describe each model it generates. */
  private static final String DESCRIBE = "kiln.describe";

  /** The file name ending of a description, after the model's simple name. */
  private static final String DESCRIPTION = ".kiln.properties";

  private static Map<String, ModelDescription> models(Path classes) throws IOException {
    Map<String, ModelDescription> models = new LinkedHashMap<>();
    for (String text : read(classes, DESCRIPTION, false).values()) {
      ModelDescription m = ModelDescription.parse(text);
      models.put(m.name(), m);
    }
    return models;
  }

  /** Files under {@code root} ending in {@code suffix}, by qualified name, sorted. */
  private static Map<String, String> read(Path root, String suffix, boolean byClassName)
      throws IOException {
    Map<String, String> found = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(suffix)).toList()) {
        String relative = root.relativize(p).toString().replace(File.separatorChar, '/');
        String name = relative.substring(0, relative.length() - suffix.length());
        found.put(byClassName ? name.replace('/', '.') : name, Files.readString(p));
      }
    }
    return found;
  }

  private static Path scratch() {
    try {
      return Files.createTempDirectory("kiln-testing-");
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
