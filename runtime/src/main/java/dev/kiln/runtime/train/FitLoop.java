package dev.kiln.runtime.train;

import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.NonFiniteException;
import dev.kiln.runtime.optim.CheckedStep;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * The training loop of classifiers and of models with a loss head, whatever runs each step (one
 * executor, or replicas on several contexts or processes): epochs of batches, each batch scored one
 * step late so that MXNet never waits for Java, listeners told of every batch and epoch, validation
 * after every epoch. A non-finite loss always stops it ({@link NanGuard}), so does a gradient an
 * update refused ({@link NonFiniteException}) and a request to close the model.
 */
public final class FitLoop {
  /** Runs the training step of one batch. */
  @FunctionalInterface
  public interface Stepper {
    /** Queues forward, backward and the update of {@code batch}; returns how to score it. */
    Step step(Batch batch);

    /**
     * Called after an epoch's last step: makes any check a step left to the next one (see {@link
     * CheckedStep#applyCheckingAtNextCall}), throwing {@link NonFiniteException} as that step
     * would.
     */
    default void finish() {}
  }

  /** A queued training step, scored once the next one is queued. */
  @FunctionalInterface
  public interface Step {
    /** The batch's loss and metric sums (waits for the step's forward pass). */
    Score score();
  }

  private FitLoop() {}

  /**
   * Trains for {@code epochs} passes over {@code train}.
   *
   * @param model the model's name, for messages and listeners
   * @param metric the name of the metric the steps score ({@link FitContext#metric()})
   * @param train the training batches
   * @param validation evaluated with {@code evaluate} after every epoch, or null
   * @param epochs passes over the training data, at least 1
   * @param stepper runs one step
   * @param evaluate loss and accuracy over a dataset, in inference mode
   * @param closing whether the model was asked to close (the loop then stops)
   * @param listeners progress, metrics, early stopping, ...
   * @return every finished epoch and why training stopped early, if it did
   */
  public static FitResult run(
      String model,
      String metric,
      DataLoader train,
      Dataset validation,
      int epochs,
      Stepper stepper,
      Function<Dataset, Evaluation> evaluate,
      BooleanSupplier closing,
      List<TrainingListener> listeners) {
    return run(
        model, metric, train, validation, epochs, stepper, () -> {}, evaluate, closing, listeners);
  }

  /**
   * As the other {@code run}, with {@code endOfEpoch} run after each epoch's last batch, before the
   * validation and the listeners (a data-parallel trainer averages its replicas' auxiliary states
   * there).
   */
  public static FitResult run(
      String model,
      String metric,
      DataLoader train,
      Dataset validation,
      int epochs,
      Stepper stepper,
      Runnable endOfEpoch,
      Function<Dataset, Evaluation> evaluate,
      BooleanSupplier closing,
      List<TrainingListener> listeners) {
    if (epochs < 1) {
      throw new IllegalArgumentException("epochs must be at least 1, got " + epochs);
    }
    List<TrainingListener> all = new ArrayList<>(listeners);
    all.add(0, new NanGuard());
    FitContext context =
        new FitContext(model, epochs, train.batchesPerEpoch(), train.examplesPerEpoch(), metric);
    all.forEach(l -> l.onFitStart(context));
    List<EpochStats> history = new ArrayList<>();
    for (int epoch = 1; epoch <= epochs && context.stopReason() == null; epoch++) {
      long start = System.nanoTime();
      double lossSum = 0;
      double metricSum = 0;
      int seen = 0;
      int index = 0;
      int stepped = 0;
      boolean aborted = false;
      Step pending = null;
      Iterator<Batch> batches = train.epoch(epoch).iterator();
      while (true) {
        Batch b = batches.hasNext() ? batches.next() : null;
        Step step = null;
        if (b != null) {
          try {
            step = stepper.step(b);
            stepped++;
          } catch (NonFiniteException e) {
            // The refused update is this batch's, or the previous batch's when the step returned
            // before its gradients were known and this step made its check.
            context.stop(
                "epoch "
                    + epoch
                    + ", batch "
                    + (e.previousCall() ? stepped : stepped + 1)
                    + ": "
                    + e.getMessage());
            aborted = true;
            b = null;
          }
        }
        if (pending != null) {
          Score r = pending.score();
          lossSum += r.lossSum();
          metricSum += r.metricSum();
          seen += r.count();
          BatchStats stats =
              new BatchStats(epoch, ++index, r.meanLoss(), r.meanMetric(), r.count(), metric);
          try {
            for (TrainingListener l : all) {
              l.onBatchEnd(context, stats);
            }
          } catch (NonFiniteException e) {
            // A listener's call into the model made the check the last step left pending.
            context.overrideStop(
                "epoch "
                    + epoch
                    + ", batch "
                    + (e.previousCall() ? stepped : index)
                    + ": "
                    + e.getMessage());
            aborted = true;
            b = null;
          }
        }
        if (closing.getAsBoolean()) {
          context.stop(model + " was closed during fit");
        }
        if (b == null) {
          break;
        }
        if (context.stopReason() != null) {
          aborted = true;
          break;
        }
        pending = step;
      }
      // However the epoch ended, the last step's update is checked before anything else sees it
      // (validation, listeners, the caller); a refused one outranks a listener's reason to stop.
      try {
        stepper.finish();
      } catch (NonFiniteException e) {
        context.overrideStop("epoch " + epoch + ", batch " + stepped + ": " + e.getMessage());
        aborted = true;
      }
      if (aborted || seen == 0) {
        break;
      }
      endOfEpoch.run();
      double seconds = (System.nanoTime() - start) / 1e9;
      Evaluation val = validation == null ? null : evaluate.apply(validation);
      EpochStats stats =
          new EpochStats(epoch, lossSum / seen, metricSum / seen, val, seconds, metric);
      history.add(stats);
      all.forEach(l -> l.onEpochEnd(context, stats));
    }
    FitResult result = new FitResult(history, context.stopReason());
    all.forEach(l -> l.onFitEnd(context, result));
    return result;
  }
}
