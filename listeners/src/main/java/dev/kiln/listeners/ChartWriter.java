package dev.kiln.listeners;

import dev.kiln.runtime.train.EpochStats;
import dev.kiln.runtime.train.FitContext;
import dev.kiln.runtime.train.TrainingListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * Draws the loss and metric curves (training, and validation when there is a validation set) per
 * epoch as a PNG with XChart, rewritten after every epoch: a classifier's accuracy, a loss head's
 * metric under its name ({@link FitContext#metric()}: {@code mse}, {@code mae}, {@code
 * binary_accuracy}); a {@code @Loss} head, whose metric is its loss, has the loss curves only.
 */
public final class ChartWriter implements TrainingListener {
  private final Path file;
  private final List<EpochStats> epochs = new ArrayList<>();

  /** Writes the chart to {@code file} (a {@code .png}). */
  public ChartWriter(Path file) {
    this.file = file;
  }

  @Override
  public void onFitStart(FitContext context) {
    epochs.clear();
  }

  @Override
  public void onEpochEnd(FitContext context, EpochStats epoch) {
    epochs.add(epoch);
    write(context.model(), context.metric());
  }

  private void write(String model, String metric) {
    boolean metricCurves = !metric.equals("loss");
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    XYChart chart =
        new XYChartBuilder()
            .width(800)
            .height(500)
            .title(model + " training")
            .xAxisTitle("epoch")
            .yAxisTitle(metricCurves ? "loss / " + metric : "loss")
            .build();
    double[] x = epochs.stream().mapToDouble(EpochStats::epoch).toArray();
    chart.addSeries("train loss", x, epochs.stream().mapToDouble(EpochStats::trainLoss).toArray());
    if (metricCurves) {
      chart.addSeries(
          "train " + metric, x, epochs.stream().mapToDouble(EpochStats::trainMetric).toArray());
    }
    if (epochs.stream().allMatch(e -> e.validation() != null)) {
      chart.addSeries(
          "validation loss", x, epochs.stream().mapToDouble(e -> e.validation().loss()).toArray());
      if (metricCurves) {
        chart.addSeries(
            "validation " + metric,
            x,
            epochs.stream().mapToDouble(e -> e.validation().metric()).toArray());
      }
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write chart " + file, e);
    }
  }
}
