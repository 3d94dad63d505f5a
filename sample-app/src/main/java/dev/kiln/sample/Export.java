package dev.kiln.sample;

import dev.kiln.runtime.io.Checkpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code export}: re-writes a checkpoint (validated) or an untrained model for MXNet/DJL. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description =
        "Write a model as an MXNet checkpoint (PREFIX-symbol.json, PREFIX-0000.params) that "
            + "MXNet and DJL load: a validated copy of --checkpoint, or a freshly initialised "
            + "model.")
final class Export implements Callable<Integer> {
  @Option(
      names = "--model",
      paramLabel = "NAME",
      description =
          "Model: mlp, lenet or lstm: the fresh model to export without --checkpoint (then "
              + "required), or, with --checkpoint, the model it must hold (default: the one it "
              + "holds).")
  SampleModel.Kind model;

  @Option(
      names = "--checkpoint",
      paramLabel = "PREFIX",
      description = "Checkpoint to export (a prefix or one of its files).")
  Path checkpoint;

  @Option(
      names = "--seed",
      defaultValue = "0",
      description = "Seed when no checkpoint is given (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--to",
      paramLabel = "PREFIX",
      required = true,
      description = "Prefix to write; its directory is created.")
  Path to;

  @Option(names = "--overwrite", description = "Replace a checkpoint already at --to.")
  boolean overwrite;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (checkpoint == null && model == null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "export needs --checkpoint PREFIX (a trained model) or --model NAME (a freshly "
              + "initialised one)");
    }
    Path target = Checkpoints.prefix(to);
    Checkpoints.refuseExisting("--to", target, overwrite);
    if (checkpoint != null && Checkpoints.prefix(checkpoint).equals(target)) {
      throw new IllegalArgumentException(
          "--to " + to + " is the checkpoint being exported; give another prefix");
    }
    try (SampleModel m =
        checkpoint == null
            ? model.create(seed)
            : Checkpoints.load("--checkpoint", model, checkpoint)) {
      Path parent = target.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      m.model().save(target);
    }
    System.out.println(
        "wrote "
            + Checkpoint.symbolFile(target)
            + ", "
            + Checkpoint.paramsFile(target)
            + ", "
            + Checkpoint.integrityFile(target));
    return 0;
  }
}
