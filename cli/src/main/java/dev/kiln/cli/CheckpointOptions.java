package dev.kiln.cli;

import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.io.Checkpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The checkpoint that {@code serve}, {@code quantize}, {@code loadtest} and {@code bench} read as
 * an inference-only {@link Predictor}: {@code --checkpoint PREFIX} and, for a checkpoint that does
 * not record its inputs' shapes (MXNet's and Gluon's exports, a model's with custom cells over
 * {@code Dim.STEPS}), {@code --input NAME=DIMS}. A checkpoint that a model's {@code save}, {@code
 * quantize} or {@link Predictor#save} wrote records them; {@code --input} overrides what is
 * recorded.
 */
final class CheckpointOptions {
  @Option(
      names = "--checkpoint",
      paramLabel = "PREFIX",
      required = true,
      description =
          "MXNet checkpoint: a prefix (out/lenet for out/lenet-symbol.json and"
              + " out/lenet-0000.params) or one of its files.")
  Path checkpoint;

  @Option(
      names = "--input",
      paramLabel = "NAME=DIMS",
      description =
          "A data input and its shape, BATCH for the batch dimension, e.g. image=BATCH,1,28,28;"
              + " one per input. Needed for a checkpoint that records no input shapes (a model's"
              + " save); one that quantize or Predictor.save wrote records them.")
  List<String> inputs = new ArrayList<>();

  /** The checkpoint's prefix ({@code out/mlp} for {@code out/mlp-0000.params}). */
  Path prefix() {
    return Checkpoint.prefixOf(checkpoint);
  }

  /** The model's default name in a server's paths: the prefix's file name. */
  String defaultName() {
    return prefix().getFileName().toString();
  }

  /** The given inputs, or a usage error of {@code cmd}. */
  List<Port> ports(CommandLine cmd) {
    List<Port> ports = new ArrayList<>();
    for (String in : inputs) {
      InputShape s = InputShape.parse(cmd, in);
      int[] dims = s.sizes(cmd, in);
      int batches = 0;
      for (int d : dims) {
        batches += d == Shape.BATCH ? 1 : 0;
      }
      if (batches != 1) {
        throw InputShape.usage(cmd, in, "exactly one dimension must be BATCH");
      }
      ports.add(new Port(s.name(), Shape.of(dims)));
    }
    return ports;
  }

  /**
   * The checkpoint as a predictor. A missing checkpoint, or an input whose shape is neither
   * recorded nor given, is refused with a message that names the option and the fix.
   */
  Predictor load(CommandLine cmd, InferenceOptions options) {
    List<Port> ports = ports(cmd);
    Path prefix = prefix();
    Path params = Checkpoint.paramsFile(prefix);
    if (!Files.isRegularFile(params)) {
      throw new IllegalArgumentException(
          "--checkpoint "
              + checkpoint
              + ": there is no checkpoint there ("
              + params
              + " does not exist); a checkpoint is PREFIX-symbol.json with PREFIX-0000.params");
    }
    try {
      return Predictor.load(prefix, options, ports);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().contains(Predictor.SHAPE_ATTR)) {
        throw e;
      }
      throw new IllegalArgumentException(
          "--checkpoint "
              + checkpoint
              + ": "
              + e.getMessage()
              + "; give its shape with --input NAME=DIMS (e.g. --input image=BATCH,1,28,28): a"
              + " model's save records no input shapes",
          e);
    }
  }
}
