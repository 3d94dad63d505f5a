package dev.kiln.runtime.optim;

/**
 * A learning-rate schedule: the rate an optimizer uses at each step. Steps are counted from 0 (the
 * optimizer's first update uses {@code rate(0)}).
 *
 * <pre>{@code
 * LearningRate.constant(0.1f)                       // 0.1 forever
 * LearningRate.step(0.1f, 0.5f, 1_000)              // 0.1, halved after every 1,000 steps
 * LearningRate.cosine(0.1f, 0f, 10_000)             // 0.1 down to 0 along a half cosine
 * LearningRate.cosine(0.1f, 0f, 10_000).withWarmup(500)   // 500 linear warm-up steps first
 * }</pre>
 *
 * <p>Any function of the step is a schedule: {@code step -> 0.1f / (1 + step / 100f)}.
 */
@FunctionalInterface
public interface LearningRate {
  /** The learning rate of step {@code step} (0 for the first update). */
  float rate(long step);

  /**
   * The rate the schedule starts from once any warm-up is over (what {@code learningRate(...)} on
   * an optimizer builder must agree with when both are given). By default {@code rate(0)}.
   */
  default float base() {
    return rate(0);
  }

  /**
   * This schedule preceded by {@code steps} steps of linear warm-up: step {@code i < steps} runs at
   * {@code base() · (i + 1) / steps}, and from step {@code steps} on this schedule runs with its
   * own clock starting at 0. So {@code cosine(0.1f, 0f, 10_000).withWarmup(500)} takes 500 steps to
   * reach 0.1 and then decays over the following 10,000. Zero steps means no warm-up.
   */
  default LearningRate withWarmup(int steps) {
    if (steps < 0) {
      throw new IllegalArgumentException("warm-up steps must be >= 0, got " + steps);
    }
    return steps == 0 ? this : new Schedules.Warmup(this, steps);
  }

  /**
   * This schedule over {@code factor} times as many steps: step {@code i} of the result runs at the
   * rate of step {@code i / factor} here (for a cosine, of the fraction {@code i / factor}). A
   * built-in schedule stays built-in, its step counts multiplied, so it can still be sent to a
   * job's servers: a {@code dist_async} job's servers step once per worker's push, {@code factor}
   * (the workers) times per step of each worker.
   */
  default LearningRate stretched(int factor) {
    if (factor < 1) {
      throw new IllegalArgumentException("stretch factor must be >= 1, got " + factor);
    }
    return factor == 1 ? this : Schedules.stretch(this, factor);
  }

  /** The same rate at every step. */
  static LearningRate constant(float rate) {
    Schedules.checkRate("learning rate", rate);
    return new Schedules.Constant(rate);
  }

  /**
   * Starts at {@code rate} and multiplies it by {@code factor} after every {@code everySteps}
   * steps: {@code rate · factor^floor(step / everySteps)} (MXNet's {@code FactorScheduler}).
   */
  static LearningRate step(float rate, float factor, int everySteps) {
    Schedules.checkRate("learning rate", rate);
    if (!(factor > 0 && factor <= 1)) {
      throw new IllegalArgumentException("step schedule factor must be in (0, 1], got " + factor);
    }
    if (everySteps < 1) {
      throw new IllegalArgumentException(
          "step schedule must decay every >= 1 steps, got " + everySteps);
    }
    return new Schedules.Step(rate, factor, everySteps);
  }

  /**
   * Half a cosine from {@code rate} at step 0 down to {@code floor} at step {@code steps}, and
   * {@code floor} after: {@code floor + (rate - floor) · (1 + cos(π · step / steps)) / 2}.
   */
  static LearningRate cosine(float rate, float floor, int steps) {
    Schedules.checkRate("learning rate", rate);
    if (!(floor >= 0 && floor <= rate)) {
      throw new IllegalArgumentException(
          "cosine schedule floor must be in [0, " + rate + "] (the starting rate), got " + floor);
    }
    if (steps < 1) {
      throw new IllegalArgumentException("cosine schedule must run for >= 1 steps, got " + steps);
    }
    return new Schedules.Cosine(rate, floor, steps);
  }
}
