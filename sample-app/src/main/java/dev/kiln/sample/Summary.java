package dev.kiln.sample;

import java.nio.file.Path;
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
      description = "Model: mlp, lenet or lstm (default: the one --checkpoint holds, else mlp).")
  SampleModel.Kind model;

  @Option(
      names = "--checkpoint",
      paramLabel = "PREFIX",
      description = "A checkpoint whose model's table to print (a prefix or one of its files).")
  Path checkpoint;

  @Override
  public Integer call() {
    SampleModel.Kind kind = model == null ? SampleModel.Kind.MLP : model;
    if (checkpoint != null) {
      try (SampleModel loaded = Checkpoints.load("--checkpoint", model, checkpoint)) {
        kind = SampleModel.Kind.parse(loaded.name());
      }
    }
    System.out.print(kind.summary());
    return 0;
  }
}
