package dev.kiln.cli;

import dev.kiln.processor.Inspector;
import dev.kiln.processor.read.DeclaredModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options {@code inspect} and {@code import} share: the symbol file, its inputs' shapes and the
 * nodes to cut it at; and the check both run, the processor's own ({@link Inspector}).
 */
final class SymbolOptions {
  @Option(
      names = "--symbol",
      required = true,
      paramLabel = "FILE",
      description = "The MXNet symbol file (-symbol.json) to import.")
  Path symbol;

  @Option(
      names = "--input",
      required = true,
      paramLabel = "NAME=DIMS",
      description =
          "An input of the file and its shape, e.g. data=BATCH,3,224,224 (BATCH for the batch "
              + "dimension); one per input.")
  List<String> inputs;

  @Option(
      names = "--output",
      paramLabel = "NODE",
      description = "A node of the file to cut the graph at (default: the file's one output).")
  List<String> outputs = new ArrayList<>();

  /** The inputs as declared, or a usage error of {@code cmd}. */
  List<DeclaredModel.Input> declaredInputs(CommandLine cmd) {
    List<DeclaredModel.Input> out = new ArrayList<>();
    for (String in : inputs) {
      InputShape shape = InputShape.parse(cmd, in);
      out.add(new DeclaredModel.Input(shape.name(), shape.dims()));
    }
    return out;
  }

  /** The file's text; a missing or unreadable file is a refusal naming it. */
  String text() {
    try {
      return Files.readString(symbol, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("symbol file " + symbol + " not found");
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read symbol file " + symbol + ": " + e);
    }
  }

  /** The file's name, {@code resnet18-symbol.json}. */
  String fileName() {
    return symbol.getFileName().toString();
  }

  /** {@code Resnet18} for {@code resnet18-symbol.json}: the interface's default name. */
  String typeName() {
    String base = fileName().replaceFirst("(-symbol)?\\.json$", "");
    StringBuilder b = new StringBuilder();
    for (String part : base.split("[^A-Za-z0-9]+")) {
      if (!part.isEmpty()) {
        b.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
      }
    }
    String name = b.toString();
    return name.isEmpty() || !Character.isJavaIdentifierStart(name.charAt(0))
        ? "Imported" + name
        : name;
  }

  /** The processor's check of the model {@code type} in {@code pkg}. */
  Inspector.Inspection inspect(CommandLine cmd, String type, String pkg) {
    List<DeclaredModel.Input> declared = declaredInputs(cmd);
    return Inspector.inspect(type, pkg, fileName(), text(), declared, outputs);
  }

  /** Fails with the check's errors, one per line, when there are any. */
  static void requireClean(Inspector.Inspection found) {
    if (!found.errors().isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", found.errors()));
    }
  }
}
