package dev.kiln.sample;

import dev.kiln.runtime.io.Checkpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the commands read and write checkpoints: a prefix given as one of its files, the model a
 * checkpoint holds, and the rule that no command replaces a checkpoint without saying so.
 *
 * <p>{@code train} keeps the checkpoint it would replace: the files move to the first free {@code
 * PREFIX.1}, {@code PREFIX.2}, ... (itself a prefix that {@code eval --checkpoint} takes), with the
 * run's metrics and chart, and the console says where; {@code --overwrite} replaces it instead.
 * {@code export} refuses a prefix that holds a checkpoint unless {@code --overwrite} is given.
 */
final class Checkpoints {
  private static final String METRICS_SUFFIX = "-metrics.csv";
  private static final String CHART_SUFFIX = "-training.png";

  private Checkpoints() {}

  /** {@code PREFIX-metrics.csv}: a train run's metrics, one line per epoch. */
  static Path metricsFile(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + METRICS_SUFFIX);
  }

  /** {@code PREFIX-training.png}: a train run's loss and accuracy chart. */
  static Path chartFile(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + CHART_SUFFIX);
  }

  /**
   * The prefix of a checkpoint given to option {@code option}: a prefix, or one of the checkpoint's
   * files ({@code out/mlp-0000.params} means {@code out/mlp}).
   */
  static Path prefix(Path given) {
    return Checkpoint.prefixOf(given);
  }

  /**
   * Loads checkpoint {@code prefix}, given to {@code option}, as the model it holds: {@code
   * requested}, or when that is null whichever sample model the checkpoint's parameters fit. A
   * missing checkpoint, a checkpoint of another model than the one requested, or one of no sample
   * model is refused with a message that names the option, the file and the fix.
   */
  static SampleModel load(String option, SampleModel.Kind requested, Path given) {
    Path prefix = prefix(given);
    Path params = Checkpoint.paramsFile(prefix);
    if (!Files.isRegularFile(params)) {
      String example = requested == null ? "mlp" : requested.cliName;
      throw new IllegalArgumentException(
          option
              + " "
              + given
              + ": there is no checkpoint there ("
              + params
              + " does not exist); give the prefix a train run wrote, e.g. out/"
              + example
              + " after `train --model "
              + example
              + "` (a checkpoint is PREFIX-symbol.json with PREFIX-0000.params)");
    }
    Map<SampleModel.Kind, String> refusals = new LinkedHashMap<>();
    List<SampleModel.Kind> order = new ArrayList<>();
    if (requested != null) {
      order.add(requested);
    }
    for (SampleModel.Kind k : SampleModel.Kind.values()) {
      if (k != requested) {
        order.add(k);
      }
    }
    for (SampleModel.Kind k : order) {
      SampleModel loaded;
      try {
        loaded = k.load(prefix);
      } catch (UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
        String why =
            e instanceof UncheckedIOException && e.getCause() != null
                ? e.getCause().getMessage()
                : e.getMessage();
        refusals.put(k, why);
        continue;
      }
      if (requested != null && k != requested) {
        loaded.close();
        throw new IllegalArgumentException(
            option
                + " "
                + given
                + " holds a checkpoint of --model "
                + k.cliName
                + ", not --model "
                + requested.cliName
                + "; give --model "
                + k.cliName
                + " or leave --model out (the checkpoint says which model it is). As --model "
                + requested.cliName
                + " it does not load: "
                + refusals.get(requested));
      }
      return loaded;
    }
    String inferenceOnly = inferenceOnly(prefix);
    if (inferenceOnly != null) {
      throw new IllegalArgumentException(
          option
              + " "
              + given
              + " holds an inference-only model ("
              + inferenceOnly
              + ", as kiln quantize or Predictor.save write it), not a sample model's"
              + " checkpoint: serve it with `kiln serve --checkpoint "
              + prefix
              + "` or load it with Predictor.load; eval, predict and summary take a checkpoint"
              + " train or export wrote");
    }
    StringBuilder why = new StringBuilder();
    refusals.forEach((k, w) -> why.append("\n  as ").append(k.cliName).append(": ").append(w));
    throw new IllegalArgumentException(
        option
            + " "
            + given
            + " is not a checkpoint of any sample model ("
            + SampleModel.Kind.names()
            + "):"
            + why);
  }

  /** The MXNet operators only an inference-only graph (fused by oneDNN, or int8) holds. */
  private static final Pattern INFERENCE_OPS =
      Pattern.compile("\"op\"\\s*:\\s*\"(_contrib_quantize\\w*|_sg_mkldnn\\w*|_sg_onednn\\w*)\"");

  /**
   * What makes checkpoint {@code prefix} inference-only ("int8" or "fused by oneDNN"), or null when
   * its symbol file holds no operator of an inference-only graph (or cannot be read).
   */
  static String inferenceOnly(Path prefix) {
    String json;
    try {
      json = Files.readString(Checkpoint.symbolFile(prefix));
    } catch (IOException | UncheckedIOException e) {
      return null;
    }
    Matcher m = INFERENCE_OPS.matcher(json);
    if (!m.find()) {
      return null;
    }
    return json.contains("_contrib_quantize") || json.contains("quantized")
        ? "int8"
        : "fused by oneDNN";
  }

  /**
   * Before {@code train} writes checkpoint {@code prefix}: when one is there, moves its files (and
   * the metrics and chart of the run that wrote it) to the first free {@code PREFIX.N}, or with
   * {@code overwrite} leaves them to be replaced. Returns what it did, for the console, or null
   * when there was nothing there.
   */
  static String keepPrevious(Path prefix, boolean overwrite) {
    if (!Checkpoint.exists(prefix)) {
      return null;
    }
    if (overwrite) {
      return "replacing the checkpoint at " + prefix + " (--overwrite)";
    }
    Path kept = null;
    for (int n = 1; kept == null; n++) {
      Path candidate = prefix.resolveSibling(prefix.getFileName() + "." + n);
      if (!Checkpoint.exists(candidate) && files(candidate).stream().noneMatch(Files::exists)) {
        kept = candidate;
      }
    }
    List<Path> from = files(prefix);
    List<Path> to = files(kept);
    try {
      for (int i = 0; i < from.size(); i++) {
        if (Files.exists(from.get(i))) {
          Files.move(from.get(i), to.get(i), StandardCopyOption.ATOMIC_MOVE);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot keep the previous checkpoint at " + prefix + " as " + kept, e);
    }
    return "kept the previous checkpoint at "
        + prefix
        + " as "
        + kept
        + " (eval --checkpoint "
        + kept
        + "); --overwrite replaces it instead";
  }

  /**
   * Refuses to write checkpoint {@code prefix}, given to {@code option}, over an existing one
   * unless {@code overwrite}.
   */
  static void refuseExisting(String option, Path prefix, boolean overwrite) {
    if (!overwrite && Checkpoint.exists(prefix)) {
      throw new IllegalArgumentException(
          option
              + " "
              + prefix
              + ": a checkpoint is already there ("
              + Checkpoint.paramsFile(prefix)
              + "); give another prefix, or --overwrite to replace it");
    }
  }

  /** The files a train run writes for checkpoint {@code prefix}, in the order it names them. */
  static List<Path> files(Path prefix) {
    return List.of(
        Checkpoint.symbolFile(prefix),
        Checkpoint.paramsFile(prefix),
        Checkpoint.integrityFile(prefix),
        metricsFile(prefix),
        chartFile(prefix));
  }
}
