package dev.kiln.cli;

import dev.kiln.onnx.OnnxExport;
import dev.kiln.onnx.OnnxExportException;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.io.NamedArray;
import dev.kiln.runtime.io.OnnxFiles;
import dev.kiln.runtime.io.ParamsFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code export}: an MXNet checkpoint as an ONNX file (see docs/export.md), the translation being
 * {@link OnnxExport}'s, the same as {@code KilnModel.exportOnnx}'s.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description =
        "Write a checkpoint as an ONNX file: the inference graph, the weights as initializers,"
            + " the inputs with BATCH as the symbolic dimension batch. A node ONNX cannot express"
            + " is refused, by name, before anything is written.")
final class ExportOnnx implements Callable<Integer> {
  @Mixin CheckpointOptions checkpoint;

  @Spec CommandSpec spec;

  @Option(
      names = "--onnx",
      paramLabel = "FILE",
      required = true,
      description = "The ONNX file to write; its directory is created.")
  Path onnx;

  @Option(
      names = "--opset",
      paramLabel = "N",
      defaultValue = "" + OnnxExport.DEFAULT_OPSET,
      description = "ONNX opset, 13 to 21 (default: ${DEFAULT-VALUE}).")
  int opset;

  @Override
  public Integer call() throws Exception {
    if (opset < OnnxExport.MIN_OPSET || opset > OnnxExport.MAX_OPSET) {
      throw Values.usage(
          spec,
          "--opset " + opset + ": choose " + OnnxExport.MIN_OPSET + " to " + OnnxExport.MAX_OPSET);
    }
    List<Port> given = checkpoint.ports(spec.commandLine());
    Path prefix = checkpoint.prefix();
    Path paramsFile = Checkpoint.paramsFile(prefix);
    if (!Files.isRegularFile(paramsFile)) {
      throw new IllegalArgumentException(
          "--checkpoint "
              + checkpoint.checkpoint
              + ": there is no checkpoint there ("
              + paramsFile
              + " does not exist); a checkpoint is PREFIX-symbol.json with PREFIX-0000.params");
    }
    String json = Files.readString(Checkpoint.symbolFile(prefix));
    SymbolFile symbol = SymbolFile.parse(json);
    Map<String, NamedArray> arrays = new LinkedHashMap<>();
    for (NamedArray a : ParamsFile.read(paramsFile)) {
      arrays.put(a.name(), a);
    }
    List<InputSpec> inputs = new ArrayList<>();
    for (Port p : given) {
      inputs.add(new InputSpec(p.name(), p.shape()));
    }
    if (inputs.isEmpty()) {
      for (SymbolFile.Node n : symbol.nodes()) {
        String recorded = n.hidden().get(Predictor.SHAPE_ATTR);
        if (n.isVariable() && !arrays.containsKey(n.name()) && recorded != null) {
          inputs.add(new InputSpec(n.name(), shape(recorded)));
        }
      }
    }
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException(
          "--checkpoint "
              + checkpoint.checkpoint
              + ": it records no input shapes; give them with --input NAME=DIMS (e.g. --input"
              + " image=BATCH,1,28,28): a model's save records none");
    }
    List<String> outputs = new ArrayList<>();
    for (SymbolFile.Entry h : symbol.heads()) {
      String name = symbol.node(h).name();
      outputs.add(h.index() == 0 ? name : name + "_output" + h.index());
    }
    try {
      OnnxFiles.write(
          onnx,
          prefix.getFileName().toString(),
          json,
          inputs,
          dev.kiln.runtime.graph.Dimensions.NONE,
          outputs,
          arrays,
          opset);
    } catch (OnnxExportException e) {
      throw new IllegalArgumentException(
          "--checkpoint " + checkpoint.checkpoint + " cannot be exported: " + e.getMessage(), e);
    }
    System.out.println(
        "wrote " + onnx + " (opset " + opset + ", inputs " + inputs + ", outputs " + outputs + ")");
    return 0;
  }

  /** An MXNet shape attribute such as {@code (-1,784)} ({@code -1} the batch). */
  private static Shape shape(String text) {
    String body = text.replaceAll("[()\\s]", "");
    return Shape.of(
        java.util.Arrays.stream(body.split(","))
            .filter(s -> !s.isEmpty())
            .mapToInt(Integer::parseInt)
            .toArray());
  }
}
