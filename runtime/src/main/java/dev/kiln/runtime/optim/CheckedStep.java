package dev.kiln.runtime.optim;

import dev.kiln.runtime.exec.NonFiniteException;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import java.util.Map;

/**
 * One optimizer step on a model's parameters with the model's gradient check ({@link
 * ParameterStore#gradientProblem}): a gradient holding NaN or infinity is never left applied.
 *
 * <p>Checking first and stepping after makes Java wait for the backward pass and MXNet wait for
 * Java's scan: at batch 32 the MLP's step took 38 % longer (issue 14). So where it can, the step is
 * queued first, after copies of what it will write ({@link ParameterStore#keepWeights}, {@link
 * FusedOptimizer#stepUndoably}), and a bad gradient puts the copies back. There are two ways to
 * wait for the verdict:
 *
 * <ul>
 *   <li>{@link #apply}: the gradients are scanned while MXNet updates, and the call returns with
 *       the update applied or throws with the parameters as they were before it;
 *   <li>{@link #applyCheckingAtNextCall}: the call returns at once and the model's next call,
 *       whatever it is, scans the gradients first ({@link
 *       dev.kiln.runtime.exec.CallGuard#deferToNextCall}) and throws there if one was bad, with the
 *       parameters as they were before the bad update. A training loop that stages its next batch
 *       meanwhile never waits for MXNet.
 * </ul>
 *
 * <p>The check comes first, and both ways wait, where the step itself reads the gradients back
 * (global-norm clipping, whose sum would be NaN first) and for optimizers other than {@link
 * FusedOptimizer}, which cannot be taken back.
 */
public final class CheckedStep {
  private CheckedStep() {}

  /**
   * Applies {@code optimizer} to {@code store}'s parameters and counts the update; unless the
   * store's check is off, returns only once the gradients are known to be finite.
   *
   * @param model the model's name, for the error message
   * @throws NonFiniteException if a gradient is NaN or infinite: no parameter and no optimizer
   *     state changed
   */
  public static void apply(ParameterStore store, Optimizer optimizer, String model) {
    FusedOptimizer fused = undoable(store, optimizer);
    if (fused == null) {
      store.checkBeforeUpdate(model);
      optimizer.step(store.fusedSlots());
      store.updateApplied();
      return;
    }
    FusedOptimizer.Undo undo = stepKeepingCopies(store, fused);
    check(store, undo, model, store.updates(), false);
  }

  /**
   * Like {@link #apply}, but returns as soon as the update is queued and leaves the check to the
   * model's next call. The caller must be inside a call of the model (its {@link
   * ParameterStore#guard()}), and the gradients must stay as they are until that check has run.
   */
  public static void applyCheckingAtNextCall(
      ParameterStore store, Optimizer optimizer, String model) {
    FusedOptimizer fused = undoable(store, optimizer);
    if (fused == null) {
      apply(store, optimizer, model);
      return;
    }
    FusedOptimizer.Undo undo = stepKeepingCopies(store, fused);
    long update = store.updates();
    store.guard().deferToNextCall(() -> check(store, undo, model, update, true));
  }

  /** Queues the copies of what the step writes, then the step, and counts the update. */
  private static FusedOptimizer.Undo stepKeepingCopies(ParameterStore store, FusedOptimizer fused) {
    Map<ParameterStore.Slot, Tensor> kept = store.keepWeights();
    FusedOptimizer.Undo undo = fused.stepUndoably(store.fusedSlots(), kept);
    store.updateApplied();
    return undo;
  }

  /**
   * Scans the gradients of update number {@code update}; a bad one is taken back (the weights and
   * the optimizer's state from before it) and thrown.
   */
  private static void check(
      ParameterStore store,
      FusedOptimizer.Undo undo,
      String model,
      long update,
      boolean atNextCall) {
    NonFiniteException bad = store.gradientProblem(model, update, atNextCall);
    if (bad == null) {
      return;
    }
    try {
      undo.undo();
    } catch (IllegalStateException e) {
      // Stepped since through another path (the optimizer called directly): the weights still
      // come back, the optimizer's state cannot.
      bad.addSuppressed(e);
    }
    store.restoreWeights();
    throw bad;
  }

  /** The optimizer as one whose step can be taken back, or null where the check must come first. */
  private static FusedOptimizer undoable(ParameterStore store, Optimizer optimizer) {
    if (store.checksGradients()
        && optimizer instanceof FusedOptimizer fused
        && fused.clipGlobalNorm() <= 0) {
      return fused;
    }
    return null;
  }
}
