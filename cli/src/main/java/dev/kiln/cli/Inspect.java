package dev.kiln.cli;

import dev.kiln.processor.Inspector;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code inspect}: the layer table of an ONNX or symbol file, checked as an {@code @Imported} node.
 */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description =
        "Check an ONNX model or an MXNet symbol file as Kiln's processor checks an @Imported "
            + "node, and print its "
            + "layer table: every node with its output shape, parameters, FLOPs and memory.")
final class Inspect implements Callable<Integer> {
  @Mixin SymbolOptions symbol;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Inspector.Inspection found =
        symbol.inspect(spec.commandLine(), symbol.typeName(spec.commandLine()), "");
    found.warnings().forEach(w -> System.err.println("warning: " + w));
    SymbolOptions.requireClean(found);
    System.out.print(found.table());
    return 0;
  }
}
