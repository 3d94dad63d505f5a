package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One mistake a user can make, as a source file under {@code src/test/resources/bad}, and the one
 * diagnostic it must give: its kind, its exact text, its file and its line, with nothing generated
 * for an error and the model generated for a warning. {@link #check} compiles it and asserts all of
 * that, strictly, under the compiler it is given.
 *
 * @param source the model's resource name, e.g. {@code bad/Cycle}
 * @param others more sources compiled with it (custom layers, other models)
 * @param library sources compiled to a class path first, with one class file then removed; or null
 * @param kind which diagnostic it gives
 * @param message the diagnostic's exact text, or its beginning when {@code prefix}; null for the
 *     compiler's own error
 * @param prefix whether {@code message} is only the beginning (a trace follows)
 * @param file the resource the diagnostic is in
 * @param line a part of the line the diagnostic is on
 * @param generated the sources that must be generated
 * @param javacAlso a Kiln error javac adds because it hides an annotation it cannot resolve from
 *     processors; null when javac gives exactly what ecj gives
 * @param ecjWarns the beginning of a warning of ecj's own that ecj adds on the same mistake; null
 *     when ecj gives no warning
 * @param ecjNote the note ({@code CustomBodyAtBuild}) that ecj gives instead (only its beginning
 *     when {@code prefix}), on the line of the model's node, with the model generated: a mistake in
 *     a custom layer's forward body, which only javac's trees show the processor; null when ecj
 *     gives what javac gives
 */
record BadCase(
    String source,
    List<String> others,
    Library library,
    Kind kind,
    String message,
    boolean prefix,
    String file,
    String line,
    List<String> generated,
    String javacAlso,
    String ecjWarns,
    EcjNote ecjNote) {

  /** What a mistake gives. */
  enum Kind {
    /** One Kiln error. */
    ERROR,
    /** One Kiln warning; the model is still generated. */
    WARNING,
    /** One Kiln note and nothing else; the model is still generated. */
    NOTE,
    /** One error of the compiler's own and none of Kiln's. */
    COMPILER_ERROR
  }

  /**
   * The note ecj gives instead of javac's error, on the model's line with {@code line}.
   *
   * @param line a part of the model's line the note is on
   * @param message the note's exact text
   */
  record EcjNote(String line, String message) {}

  /**
   * Sources compiled to class files before the case, as a library would be.
   *
   * @param sources their resource names
   * @param removed the class file then deleted, relative to the class path root; null for none
   */
  record Library(List<String> sources, String removed) {}

  private static final Pattern ID = Pattern.compile("^\\[kiln:([A-Za-z]+)\\] ");

  /** {@code source} must give the Kiln error {@code message} on the line with {@code line}. */
  static BadCase error(String source, String line, String message) {
    return new BadCase(
        source,
        List.of(),
        null,
        Kind.ERROR,
        message,
        false,
        source,
        line,
        List.of(),
        null,
        null,
        null);
  }

  /** {@code source} must give the Kiln warning {@code message} and still be generated. */
  static BadCase warning(String source, String line, String message) {
    return generatedWith(Kind.WARNING, source, line, message);
  }

  /** {@code source} must give the Kiln note {@code message} alone and still be generated. */
  static BadCase note(String source, String line, String message) {
    return generatedWith(Kind.NOTE, source, line, message);
  }

  /**
   * {@code source} must give the diagnostic {@code message} of {@code kind} and all three files.
   */
  private static BadCase generatedWith(Kind kind, String source, String line, String message) {
    String model = source.replace('/', '.');
    return new BadCase(
        source,
        List.of(),
        null,
        kind,
        message,
        false,
        source,
        line,
        List.of(model + "Graph", model + "Model", model + "Exec"),
        null,
        null,
        null);
  }

  /** {@code source} must give one error of the compiler's own, and none of Kiln's. */
  static BadCase compilerError(String source, String line) {
    return new BadCase(
        source,
        List.of(),
        null,
        Kind.COMPILER_ERROR,
        null,
        false,
        source,
        line,
        List.of(),
        null,
        null,
        null);
  }

  /** This case, compiled together with {@code more}. */
  BadCase with(String... more) {
    List<String> all = new ArrayList<>(others);
    all.addAll(List.of(more));
    return new BadCase(
        source, all, library, kind, message, prefix, file, line, generated, javacAlso, ecjWarns,
        ecjNote);
  }

  /** This case with {@code sources} compiled to the class path first, minus {@code removed}. */
  BadCase onClassPath(String removed, String... sources) {
    return new BadCase(
        source,
        others,
        new Library(List.of(sources), removed),
        kind,
        message,
        prefix,
        file,
        line,
        generated,
        javacAlso,
        ecjWarns,
        ecjNote);
  }

  /** This case with {@code sources} compiled to the class path first, as a library of layers. */
  BadCase fromLibrary(String... sources) {
    return onClassPath(null, sources);
  }

  /** This case with the diagnostic in resource {@code inFile} instead of the model's file. */
  BadCase in(String inFile) {
    return new BadCase(
        source, others, library, kind, message, prefix, inFile, line, generated, javacAlso,
        ecjWarns, ecjNote);
  }

  /** This case with {@code message} only the beginning of the text. */
  BadCase startingWith() {
    return new BadCase(
        source, others, library, kind, message, true, file, line, generated, javacAlso, ecjWarns,
        ecjNote);
  }

  /** This case, with {@code names} generated. */
  BadCase generating(String... names) {
    return new BadCase(
        source,
        others,
        library,
        kind,
        message,
        prefix,
        file,
        line,
        List.of(names),
        javacAlso,
        ecjWarns,
        ecjNote);
  }

  /** This case, with javac also giving {@code kilnError} (it hides the annotation at fault). */
  BadCase butJavacAlso(String kilnError) {
    return new BadCase(
        source, others, library, kind, message, prefix, file, line, generated, kilnError, ecjWarns,
        ecjNote);
  }

  /** This case, with ecj also warning, in words starting {@code warning}. */
  BadCase butEcjAlsoWarns(String warning) {
    return new BadCase(
        source, others, library, kind, message, prefix, file, line, generated, javacAlso, warning,
        ecjNote);
  }

  /**
   * This case, with ecj giving the note {@code note} instead, on the model's line with {@code
   * nodeLine}, and generating the model: the mistake is in a custom layer's forward body, which
   * only javac's trees show.
   */
  BadCase butUnderEcjNotes(String nodeLine, String note) {
    return new BadCase(
        source,
        others,
        library,
        kind,
        message,
        prefix,
        file,
        line,
        generated,
        javacAlso,
        ecjWarns,
        new EcjNote(nodeLine, note));
  }

  /** The Kiln id the case gives, or null for a compiler error. */
  String id() {
    if (message == null) {
      return null;
    }
    Matcher m = ID.matcher(message);
    return m.find() ? m.group(1) : null;
  }

  @Override
  public String toString() {
    return source.substring(source.lastIndexOf('/') + 1);
  }

  /** Compiles the case under {@code compiler} and asserts its one diagnostic. */
  void check(TestCompiler compiler) {
    if (ecjNote != null && compiler == TestCompiler.ECJ) {
      // A model under good/ has its folder below good/ as its package.
      String model = (source.startsWith("good/") ? source.substring(5) : source).replace('/', '.');
      new BadCase(
              source,
              others,
              library,
              Kind.NOTE,
              ecjNote.message(),
              prefix,
              source,
              ecjNote.line(),
              List.of(model + "Graph", model + "Model", model + "Exec"),
              null,
              ecjWarns,
              null)
          .check(compiler);
      return;
    }
    List<Path> classPath = new ArrayList<>();
    Path lib = null;
    if (library != null) {
      try {
        lib =
            Files.createTempDirectory(
                Files.createDirectories(Path.of("target/kiln-tests")), "lib-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      compiler.compileLibrary(lib, library.sources().stream().map(TestCompiler::resource).toList());
      if (library.removed() != null) {
        delete(lib.resolve(library.removed()));
      }
      classPath.add(lib);
    }
    List<Path> sources =
        Stream.concat(Stream.of(source), others.stream()).map(TestCompiler::resource).toList();
    Result r = compiler.compile(List.of(), classPath, sources);
    if (lib != null) {
      deleteTree(lib);
    }
    String all = "\n" + String.join("\n", r.diagnostics().stream().map(Object::toString).toList());
    boolean javacHides = javacAlso != null && compiler == TestCompiler.JAVAC;
    boolean generates = kind == Kind.WARNING || kind == Kind.NOTE;
    int errors = (generates ? 0 : 1) + (javacHides ? 1 : 0);
    assertEquals(errors, r.errors().size(), "errors:" + all);
    boolean ecjAlsoWarns = ecjWarns != null && compiler == TestCompiler.ECJ;
    assertEquals(
        (kind == Kind.WARNING ? 1 : 0) + (ecjAlsoWarns ? 1 : 0),
        r.warnings().size(),
        "warnings:" + all);
    if (ecjAlsoWarns) {
      assertTrue(
          r.warnings().stream().anyMatch(w -> w.message().startsWith(ecjWarns)),
          "ecj's warning:" + all);
    }
    assertEquals(generates, r.succeeded(), "succeeded:" + all);
    assertEquals(kind == Kind.NOTE ? 1 : 0, r.notes().size(), "notes:" + all);
    List<Result.Diag> kindOf =
        switch (kind) {
          case WARNING -> r.warnings();
          case NOTE -> r.notes();
          default -> r.errors();
        };
    Result.Diag d =
        kindOf.stream()
            .filter(e -> !javacHides || !e.message().startsWith("[kiln:"))
            .findFirst()
            .orElseThrow();
    if (kind == Kind.COMPILER_ERROR) {
      assertFalse(d.message().contains("[kiln:"), "the compiler's own error:" + all);
    } else if (prefix) {
      assertTrue(d.message().startsWith(message), "message:" + all);
    } else {
      assertEquals(message, d.message(), "message:" + all);
    }
    assertEquals(TestCompiler.resource(file).toAbsolutePath().normalize(), d.file(), "file:" + all);
    assertTrue(
        d.lineText().contains(line),
        "on a line containing '" + line + "', not '" + d.lineText() + "':" + all);
    if (javacHides) {
      assertEquals(
          javacAlso,
          r.errors().stream()
              .map(Result.Diag::message)
              .filter(e -> e.startsWith("[kiln:"))
              .findFirst()
              .orElseThrow(),
          "javac:" + all);
    }
    assertEquals(generated, List.copyOf(r.generated().keySet()), "generated:" + all);
  }

  private static void delete(Path file) {
    try {
      Files.delete(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
