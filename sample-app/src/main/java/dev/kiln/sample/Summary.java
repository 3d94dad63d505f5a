package dev.kiln.sample;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code summary}: the compile-time layer table. */
@Command(
    name = "summary",
    mixinStandardHelpOptions = true,
    description =
        "Print a model's layers, output shapes and parameter counts, as computed at compile "
            + "time.")
final class Summary implements Callable<Integer> {
  @Option(
      names = "--model",
      paramLabel = "NAME",
      defaultValue = "mlp",
      description = "Model: mlp, lenet or lstm (default: ${DEFAULT-VALUE}).")
  SampleModel.Kind model;

  @Override
  public Integer call() {
    System.out.print(model.summary());
    return 0;
  }
}
