package dev.kiln.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaFileObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.eclipse.jdt.core.compiler.batch.BatchCompiler;
import org.eclipse.jdt.internal.compiler.tool.EclipseCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor under the Eclipse compiler (ecj), which IDEs use and which once returned members
 * in another order: the same goldens and the same diagnostics as under javac.
 */
class EclipseCompilerTest {
  private static Compiler ecj() {
    return Compiler.compiler(new EclipseCompiler()).withProcessors(new KilnProcessor())
        .withOptions("--release", "17");
  }

  /**
   * ecj's batch compiler on real directories (ecj cannot read generated sources back from
   * compile-testing's in-memory file manager): the processor runs inside it, and the generated
   * files must equal the goldens and compile without errors.
   */
  @Test
  void generatesTheGoldenFilesByteForByte(@TempDir Path dir) throws Exception {
    Path src = dir.resolve("src/demo");
    Files.createDirectories(src);
    Files.copy(Path.of("src/test/resources/good/demo/FashionMlp.java"),
        src.resolve("FashionMlp.java"));
    Path gen = Files.createDirectories(dir.resolve("gen"));
    Path out = Files.createDirectories(dir.resolve("classes"));
    StringWriter log = new StringWriter();
    boolean ok = BatchCompiler.compile(new String[] {
        "--release", "17", "-warn:none",
        "-classpath", System.getProperty("java.class.path"),
        "-processor", KilnProcessor.class.getName(),
        "-s", gen.toString(), "-d", out.toString(),
        src.resolve("FashionMlp.java").toString()},
        new PrintWriter(log), new PrintWriter(log), null);
    assertTrue(ok, log.toString());
    for (String name : new String[] {"FashionMlpGraph", "FashionMlpModel", "FashionMlpExec"}) {
      String expected = Files.readString(Path.of("src/test/resources/golden/demo/" + name
          + ".java"), StandardCharsets.UTF_8);
      String actual = Files.readString(gen.resolve("demo/" + name + ".java"),
          StandardCharsets.UTF_8);
      assertEquals(expected, actual, name);
      assertTrue(Files.exists(out.resolve("demo/" + name + ".class")), name + " compiled");
    }
  }

  @Test
  void reportsTheSameDiagnosticOnTheSameLine() {
    JavaFileObject source = JavaFileObjects.forResource("bad/AddShapeMismatch.java");
    Compilation c = ecj().compile(source);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[kiln:ShapeMismatch] AddShapeMismatch.skip(): @Add needs "
        + "equal shapes").inFile(source).onLineContaining("@Add");
  }
}
