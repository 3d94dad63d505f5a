package dev.kiln.listeners;

import dev.kiln.runtime.train.BatchStats;
import dev.kiln.runtime.train.EpochStats;
import dev.kiln.runtime.train.FitContext;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.TrainingListener;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Consumer;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows training progress: on a terminal, a progress bar per epoch with elapsed time, rate and the
 * running loss, then one line per epoch; otherwise (CI, redirected output) a line every {@code
 * logEvery} batches and one per epoch. Lines go to standard output by default, so progress shows
 * without any logging set up; give a {@code Consumer} (e.g. an SLF4J logger's {@code info}) to send
 * them elsewhere.
 */
public final class ProgressListener implements TrainingListener {
  private final PrintStream terminal;
  private final Consumer<String> log;
  private final int logEvery;
  private ProgressBar bar;
  private double lossSum;
  private int examples;

  /** A bar on a terminal, else a line every 500 batches; lines on standard output. */
  public ProgressListener() {
    this(System.console() != null ? System.out : null, System.out::println, 500);
  }

  /**
   * A bar drawn on {@code terminal} when it is not null; otherwise lines given to {@code log} every
   * {@code logEvery} batches and once per epoch.
   */
  public ProgressListener(PrintStream terminal, Consumer<String> log, int logEvery) {
    if (logEvery < 1) {
      throw new IllegalArgumentException("logEvery must be at least 1, got " + logEvery);
    }
    this.terminal = terminal;
    this.log = log;
    this.logEvery = logEvery;
  }

  @Override
  public void onBatchEnd(FitContext context, BatchStats b) {
    if (b.batch() == 1) {
      lossSum = 0;
      examples = 0;
      if (terminal != null) {
        bar =
            new ProgressBarBuilder()
                .setTaskName("epoch " + b.epoch() + "/" + context.epochs())
                .setInitialMax(context.batchesPerEpoch())
                .setStyle(ProgressBarStyle.ASCII)
                .setConsumer(new ConsoleProgressBarConsumer(terminal))
                // Short enough for 80 columns, bar included: batches counted without a unit,
                // the elapsed time without an ETA and a whole number of batches a second, so
                // that the running loss at the end still shows.
                .hideEta()
                .showSpeed(new java.text.DecimalFormat("0"))
                .build();
      }
    }
    lossSum += b.loss() * b.examples();
    examples += b.examples();
    double running = lossSum / examples;
    if (bar != null) {
      bar.stepTo(b.batch());
      bar.setExtraMessage(String.format(Locale.ROOT, "  loss %.4f", running));
    } else if (b.batch() % logEvery == 0) {
      log.accept(
          String.format(
              Locale.ROOT,
              "%s epoch %d/%d batch %d/%d loss %.4f",
              context.model(),
              b.epoch(),
              context.epochs(),
              b.batch(),
              context.batchesPerEpoch(),
              running));
    }
  }

  @Override
  public void onEpochEnd(FitContext context, EpochStats e) {
    if (bar != null) {
      bar.close();
      bar = null;
    }
    String metric = shortName(context.metric());
    String val =
        e.validation() == null
            ? ""
            : String.format(Locale.ROOT, "  validation loss %.4f", e.validation().loss())
                + (metric == null
                    ? ""
                    : String.format(Locale.ROOT, " %s %.4f", metric, e.validation().metric()));
    log.accept(
        String.format(
            Locale.ROOT,
            "%s epoch %d/%d  train loss %.4f%s%s  %.1f s",
            context.model(),
            e.epoch(),
            context.epochs(),
            e.trainLoss(),
            metric == null ? "" : String.format(Locale.ROOT, " %s %.4f", metric, e.trainMetric()),
            val,
            e.seconds()));
  }

  /**
   * How an epoch line names {@code metric}: {@code acc} for accuracy, {@code bin-acc} for binary
   * accuracy, the name itself otherwise; null for a {@code @Loss} head's, which is the loss.
   */
  static String shortName(String metric) {
    return switch (metric) {
      case "accuracy" -> "acc";
      case "binary_accuracy" -> "bin-acc";
      case "loss" -> null;
      default -> metric;
    };
  }

  @Override
  public void onFitEnd(FitContext context, FitResult result) {
    if (bar != null) {
      bar.close();
      bar = null;
    }
    if (result.stopReason() != null) {
      log.accept(context.model() + " stopped early: " + result.stopReason());
    }
  }
}
