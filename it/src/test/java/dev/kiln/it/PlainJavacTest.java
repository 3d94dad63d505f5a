package dev.kiln.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain javac with the one processor jar, as docs/guide.md gives the command, on the README's
 * model: the generated sources appear and compile. And what JDK 23 and later do when the processor
 * is only on the class path: nothing, silently, unless {@code -proc:full} is given.
 */
class PlainJavacTest {
  private static final Path JARS = Path.of(System.getProperty("kiln.it.javacDir", "target/javac"));
  private static final String VERSION = System.getProperty("kiln.it.version");
  private static final String PROCESSOR = "kiln-processor-" + VERSION + ".jar";
  private static final List<String> GENERATED =
      List.of("FashionMlpGraph", "FashionMlpModel", "FashionMlpExec");

  @TempDir Path dir;

  @BeforeEach
  void stage() throws IOException {
    Files.copy(JARS.resolve(PROCESSOR), dir.resolve(PROCESSOR));
    Files.createDirectories(dir.resolve("lib"));
    try (Stream<Path> jars = Files.list(JARS.resolve("lib"))) {
      for (Path jar : jars.toList()) {
        Files.copy(jar, dir.resolve("lib").resolve(jar.getFileName()));
      }
    }
    Path model = dir.resolve("demo/FashionMlp.java");
    Files.createDirectories(model.getParent());
    Files.writeString(
        model, DocBlocks.read(Path.of("../README.md")).get("src/main/java/demo/FashionMlp.java"));
  }

  @Test
  void theDocumentedCommandGeneratesAndCompilesTheModel() throws Exception {
    Run run = bash(javaHome(), documentedCommand());

    assertEquals(0, run.exit(), run.toString());
    assertGenerated(true);
    assertTrue(Files.isRegularFile(dir.resolve("classes/demo/FashionMlpModel.class")));
  }

  @Test
  void theDocumentedCommandWorksOnTheNewestJdkToo() throws Exception {
    Path jdk = newestJdk().orElse(null);
    assumeTrue(jdk != null && feature(jdk) >= 23, "no JDK 23+ under /usr/lib/jvm or /opt");

    Run run = bash(jdk, documentedCommand());

    assertEquals(0, run.exit(), run.toString());
    assertGenerated(true);
  }

  @Test
  void jdk23AndLaterIgnoreAProcessorOnlyOnTheClassPathUnlessProcFull() throws Exception {
    Path jdk = newestJdk().orElse(null);
    assumeTrue(jdk != null && feature(jdk) >= 23, "no JDK 23+ under /usr/lib/jvm or /opt");
    String classPathOnly =
        "javac -cp 'lib/*:" + PROCESSOR + "' -d classes -s generated " + "demo/FashionMlp.java";

    Run ignored = bash(jdk, classPathOnly);
    assertEquals(0, ignored.exit(), ignored.toString());
    assertGenerated(false);
    assertEquals("", ignored.output(), "javac said something: " + ignored);

    Run full = bash(jdk, classPathOnly.replace("javac ", "javac -proc:full "));
    assertEquals(0, full.exit(), full.toString());
    assertGenerated(true);
  }

  @Test
  void jdk17RunsAProcessorOnTheClassPath() throws Exception {
    assumeTrue(feature(javaHome()) < 23, "the tests run on JDK 23+");

    Run run =
        bash(
            javaHome(),
            "javac -cp 'lib/*:"
                + PROCESSOR
                + "' -d classes -s generated "
                + "demo/FashionMlp.java");

    assertEquals(0, run.exit(), run.toString());
    assertGenerated(true);
  }

  /** The javac block of docs/guide.md, which must name this build's processor jar. */
  private static String documentedCommand() {
    String command = DocBlocks.read(Path.of("../docs/guide.md")).get("compile.sh");
    assertTrue(
        command != null && command.contains(PROCESSOR),
        "docs/guide.md marks no " + "compile.sh block naming " + PROCESSOR + ": " + command);
    return command;
  }

  private void assertGenerated(boolean expected) {
    for (String name : GENERATED) {
      Path source = dir.resolve("generated/demo/" + name + ".java");
      assertEquals(
          expected,
          Files.isRegularFile(source),
          source + (expected ? " is missing" : " should not exist"));
    }
  }

  /** What a script did: its exit status and output, and the script, for messages. */
  private record Run(String script, int exit, String output) {
    @Override
    public String toString() {
      return "$ " + script + "\n" + output;
    }
  }

  /** Runs {@code script} with bash in the staged directory, {@code jdk}'s bin first on PATH. */
  private Run bash(Path jdk, String script) throws Exception {
    deleteIfExists(dir.resolve("classes"));
    deleteIfExists(dir.resolve("generated"));
    ProcessBuilder pb =
        new ProcessBuilder("bash", "-euo", "pipefail", "-c", script)
            .directory(dir.toFile())
            .redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.put("PATH", jdk.resolve("bin") + java.io.File.pathSeparator + env.get("PATH"));
    env.put("JAVA_HOME", jdk.toString());
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes());
    return new Run(script, p.waitFor(), output);
  }

  private static Path javaHome() {
    return Path.of(System.getProperty("java.home"));
  }

  /** The JDK under /usr/lib/jvm or /opt with the highest feature release. */
  private static Optional<Path> newestJdk() throws IOException {
    List<Path> jdks = new ArrayList<>();
    for (Path root : List.of(Path.of("/usr/lib/jvm"), Path.of("/opt"))) {
      if (Files.isDirectory(root)) {
        try (Stream<Path> dirs = Files.list(root)) {
          dirs.filter(
                  d ->
                      Files.isExecutable(d.resolve("bin/javac"))
                          && Files.isRegularFile(d.resolve("release")))
              .forEach(jdks::add);
        }
      }
    }
    return jdks.stream().max(Comparator.comparingInt(PlainJavacTest::feature));
  }

  /** The feature release of a JDK, from its {@code release} file. */
  private static int feature(Path jdk) {
    Properties release = new Properties();
    try (var in = Files.newBufferedReader(jdk.resolve("release"))) {
      release.load(in);
    } catch (IOException e) {
      return Runtime.version().feature();
    }
    String version = release.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
    return Integer.parseInt(version.split("[.+-]")[0]);
  }

  private static void deleteIfExists(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
