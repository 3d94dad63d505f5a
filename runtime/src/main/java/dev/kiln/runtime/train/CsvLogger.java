package dev.kiln.runtime.train;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes one CSV row per epoch: {@code epoch,train_loss,train_accuracy,val_loss,val_accuracy,
 * seconds} for a classifier, with the trainer's metric in place of {@code accuracy} otherwise
 * ({@link FitContext#metric()}: {@code train_mse}, ...; validation columns empty without a
 * validation set). The file is rewritten at the start of training and flushed after every row, so
 * it is readable while training runs.
 */
public final class CsvLogger implements TrainingListener {
  static final String HEADER = "epoch,train_loss,train_accuracy,val_loss,val_accuracy,seconds";

  /** The header for a trainer reporting {@code metric}. */
  static String header(String metric) {
    return HEADER.replace("accuracy", metric);
  }

  private final Path file;
  private Writer out;

  /** Logs to {@code file}, replacing it. */
  public CsvLogger(Path file) {
    this.file = file;
  }

  @Override
  public void onFitStart(FitContext context) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
      out.write(header(context.metric()) + "\n");
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write metrics to " + file, e);
    }
  }

  @Override
  public void onEpochEnd(FitContext context, EpochStats e) {
    String val =
        e.validation() == null
            ? ","
            : String.format(
                Locale.ROOT, "%.6f,%.6f", e.validation().loss(), e.validation().metric());
    try {
      out.write(
          String.format(
              Locale.ROOT,
              "%d,%.6f,%.6f,%s,%.3f%n",
              e.epoch(),
              e.trainLoss(),
              e.trainMetric(),
              val,
              e.seconds()));
      out.flush();
    } catch (IOException ex) {
      throw new UncheckedIOException("cannot write metrics to " + file, ex);
    }
  }

  @Override
  public void onFitEnd(FitContext context, FitResult result) {
    try {
      if (out != null) {
        out.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close " + file, e);
    } finally {
      out = null;
    }
  }
}
