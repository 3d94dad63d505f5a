package dev.kiln.cli;

import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.Inspector;
import dev.kiln.processor.read.DeclaredModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options {@code inspect} and {@code import} share: the symbol or ONNX file, its inputs' shapes
 * and the nodes to cut it at; and the check both run, the processor's own ({@link Inspector}).
 */
final class SymbolOptions {
  @Option(
      names = "--symbol",
      paramLabel = "FILE",
      description = "The MXNet symbol file (-symbol.json) to import; or --onnx.")
  Path symbol;

  @Option(
      names = "--onnx",
      paramLabel = "FILE",
      description = "The ONNX model (.onnx) to import; or --symbol.")
  Path onnx;

  @Option(
      names = "--input",
      paramLabel = "NAME=DIMS",
      description =
          "An input of the file and its shape, e.g. data=BATCH,3,224,224 (BATCH for the batch "
              + "dimension, a name such as H for a free size: data=BATCH,3,H,W); one per input. "
              + "Required for --symbol; for --onnx, the default is the file's inputs as it "
              + "declares them, a symbolic first dimension read as BATCH and each named size "
              + "past it a free dimension.")
  List<String> inputs = new ArrayList<>();

  @Option(
      names = "--output",
      paramLabel = "NODE",
      description = "A node of the file to cut the graph at (default: the file's one output).")
  List<String> outputs = new ArrayList<>();

  /**
   * The inputs as declared, with the free dimensions they name (placeholders from -10 down, in the
   * order the names first appear), or a usage error of {@code cmd}.
   */
  DeclaredModel.Inputs declaredInputs(CommandLine cmd) {
    List<DeclaredModel.Input> out = new ArrayList<>();
    Map<String, Integer> free = new LinkedHashMap<>();
    for (String in : inputs) {
      InputShape shape = InputShape.parse(cmd, in);
      out.add(new DeclaredModel.Input(shape.name(), shape.dims(free)));
    }
    if (free.size() > TShape.PLACEHOLDER_FIRST - TShape.PLACEHOLDER_LAST + 1) {
      throw InputShape.usage(cmd, String.join(" ", inputs), "too many free dimensions");
    }
    List<DeclaredModel.Dim> dims = new ArrayList<>();
    free.forEach((name, placeholder) -> dims.add(new DeclaredModel.Dim(name, placeholder)));
    return new DeclaredModel.Inputs(out, dims);
  }

  /** The file given, {@code --symbol} or {@code --onnx}: exactly one, or a usage error. */
  Path file(CommandLine cmd) {
    if ((symbol == null) == (onnx == null)) {
      throw new CommandLine.ParameterException(
          cmd,
          symbol == null
              ? "Missing required option: '--symbol=FILE' or '--onnx=FILE'"
              : "Give one of '--symbol' and '--onnx', not both");
    }
    if (symbol != null && inputs.isEmpty()) {
      throw new CommandLine.ParameterException(
          cmd, "Missing required option: '--input=NAME=DIMS' (one per input of the symbol file)");
    }
    return symbol != null ? symbol : onnx;
  }

  /** The file's bytes; a missing or unreadable file is a refusal naming it. */
  private byte[] bytes(Path file) {
    String kind = file == onnx ? "ONNX file " : "symbol file ";
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(kind + file + " not found");
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + kind + file + ": " + e);
    }
  }

  /** The file's name, {@code resnet18-symbol.json} or {@code lenet.onnx}. */
  String fileName(CommandLine cmd) {
    return file(cmd).getFileName().toString();
  }

  /** {@code Resnet18} for {@code resnet18-symbol.json}: the interface's default name. */
  String typeName(CommandLine cmd) {
    String base = fileName(cmd).replaceFirst("(-symbol)?\\.json$|\\.onnx$", "");
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
    Path file = file(cmd);
    DeclaredModel.Inputs declared = declaredInputs(cmd);
    byte[] bytes = bytes(file);
    String name = fileName(cmd);
    return file == onnx
        ? Inspector.inspectOnnx(type, pkg, name, bytes, declared.inputs(), declared.dims(), outputs)
        : Inspector.inspect(
            type,
            pkg,
            name,
            new String(bytes, StandardCharsets.UTF_8),
            declared.inputs(),
            declared.dims(),
            outputs);
  }

  /** Fails with the check's errors, one per line, when there are any. */
  static void requireClean(Inspector.Inspection found) {
    if (!found.errors().isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", found.errors()));
    }
  }
}
