package dev.kiln.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.testing.Compilation;
import dev.kiln.testing.KilnCompiler;
import dev.kiln.testing.KilnDiagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of the README and of docs/ compiles as shown: each is a whole source
 * file (package, imports, one top-level type), and all of them compile together with Kiln's
 * processor, against kiln-runtime, kiln-listeners, kiln-serving, kiln-testing and JUnit, as one
 * project would. A block shown twice (the README's model in the guide) must be the same text.
 */
class DocSnippetsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** The files the docs' {@code @Imported} examples read, and where they come from. */
  private static final Map<String, Path> SYMBOL_FILES =
      Map.of(
          "demo/lenet-symbol.json",
          ROOT.resolve("cli/src/test/resources/dev/kiln/cli/lenet-symbol.json"),
          "demo/lenet.onnx",
          ROOT.resolve("e2e/src/test/resources/dev/kiln/e2e/onnx/lenet.onnx"),
          "demo/fcn-symbol.json",
          ROOT.resolve("e2e/src/test/resources/dev/kiln/e2e/imported/fcn-symbol.json"));

  @TempDir Path dir;

  @Test
  void everyJavaBlockOfTheDocsCompilesAsShown() throws IOException {
    Map<Path, DocBlocks.Block> origins = new LinkedHashMap<>();
    Map<String, DocBlocks.Block> byPath = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    Path src = dir.resolve("src");
    for (Path doc : docs()) {
      for (DocBlocks.Block block : DocBlocks.javaBlocks(doc)) {
        String path;
        try {
          path = DocBlocks.sourcePath(block);
        } catch (IllegalArgumentException e) {
          problems.add(e.getMessage());
          continue;
        }
        DocBlocks.Block before = byPath.putIfAbsent(path, block);
        if (before != null) {
          if (!before.text().equals(block.text())) {
            problems.add(
                block.where() + ": " + path + " differs from the one at " + before.where());
          }
          continue;
        }
        Path file = src.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, block.text());
        origins.put(file.toAbsolutePath().normalize(), block);
      }
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
    assertTrue(origins.size() > 15, "found the blocks: " + byPath.keySet());

    Path resources = dir.resolve("resources");
    for (Map.Entry<String, Path> symbol : SYMBOL_FILES.entrySet()) {
      Path target = resources.resolve(symbol.getKey());
      Files.createDirectories(target.getParent());
      Files.copy(symbol.getValue(), target);
    }
    Compilation c =
        KilnCompiler.javac().withClassPath(resources).compileFiles(List.copyOf(origins.keySet()));

    List<String> errors = new ArrayList<>();
    for (KilnDiagnostic d : c.errors()) {
      DocBlocks.Block block = d.file() == null ? null : origins.get(d.file());
      errors.add(
          (block == null
                  ? String.valueOf(d.file())
                  : ROOT.relativize(block.doc().toAbsolutePath().normalize())
                      + ":"
                      + (block.line() + d.line() - 1))
              + ": "
              + d.message());
    }
    if (!errors.isEmpty()) {
      fail(errors.size() + " errors in the docs' Java blocks:\n" + String.join("\n", errors));
    }
    assertTrue(
        c.generatedSources().containsKey("demo.FashionMlpModel"),
        "generated: " + c.generatedSources().keySet());
    assertEquals(List.of(), c.errors());
  }

  /** The README and every Markdown file of docs/. */
  private static List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }
}
