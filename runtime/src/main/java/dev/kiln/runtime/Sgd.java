package dev.kiln.runtime;

import com.sun.jna.Pointer;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain stochastic gradient descent, {@code w -= lr · (rescale · g + wd · w)}, with MXNet's
 * {@code sgd_update} operator run in place on each weight.
 */
public final class Sgd implements Optimizer {
  private static final String[] KEYS = {"lr", "wd", "rescale_grad"};

  private final Map<ParameterStore.Slot, PreparedOp> ops = new IdentityHashMap<>();
  private float learningRate;
  private final float weightDecay;
  private float rescaleGrad = 1f;

  /** SGD with learning rate {@code learningRate} and no weight decay. */
  public Sgd(float learningRate) {
    this(learningRate, 0f);
  }

  /** SGD with learning rate and L2 weight decay. */
  public Sgd(float learningRate, float weightDecay) {
    if (!(learningRate > 0) || !Float.isFinite(learningRate)) {
      throw new IllegalArgumentException("learning rate must be positive and finite, got "
          + learningRate);
    }
    if (!(weightDecay >= 0)) {
      throw new IllegalArgumentException("weight decay must be >= 0, got " + weightDecay);
    }
    this.learningRate = learningRate;
    this.weightDecay = weightDecay;
  }

  /** Changes the learning rate for the next steps. */
  public void learningRate(float lr) {
    if (!(lr > 0) || !Float.isFinite(lr)) {
      throw new IllegalArgumentException("learning rate must be positive and finite, got " + lr);
    }
    this.learningRate = lr;
  }

  /** Scales every gradient by {@code scale} before the step (e.g. 1/batch). */
  public void rescaleGrad(float scale) {
    this.rescaleGrad = scale;
  }

  @Override
  public void step(List<ParameterStore.Slot> params) {
    String[] vals = {
      Float.toString(learningRate), Float.toString(weightDecay), Float.toString(rescaleGrad)
    };
    for (ParameterStore.Slot p : params) {
      ops.computeIfAbsent(p, s -> new PreparedOp("sgd_update",
              new Pointer[] {s.weight().handle(), s.grad().handle()},
              new Pointer[] {s.weight().handle()}))
          .run(KEYS, vals);
    }
  }
}
