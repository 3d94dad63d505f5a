package dev.kiln.runtime.optim;

/** The built-in {@link LearningRate} schedules; made through its factory methods. */
final class Schedules {
  private Schedules() {}

  static void checkRate(String what, float rate) {
    if (!(rate > 0) || !Float.isFinite(rate)) {
      throw new IllegalArgumentException(what + " must be positive and finite, got " + rate);
    }
  }

  /** {@link LearningRate#stretched}: the built-ins with their step counts multiplied. */
  static LearningRate stretch(LearningRate rate, int factor) {
    if (rate instanceof Constant) {
      return rate;
    }
    if (rate instanceof Step s) {
      return new Step(s.start(), s.factor(), Math.multiplyExact(s.every(), factor));
    }
    if (rate instanceof Cosine c) {
      return new Cosine(c.start(), c.floor(), Math.multiplyExact(c.steps(), factor));
    }
    if (rate instanceof Warmup w) {
      return new Warmup(w.after().stretched(factor), Math.multiplyExact(w.steps(), factor));
    }
    return new LearningRate() {
      @Override
      public float rate(long step) {
        return rate.rate(Math.floorDiv(step, factor));
      }

      @Override
      public float base() {
        return rate.base();
      }

      @Override
      public String toString() {
        return rate + " stretched " + factor + " times";
      }
    };
  }

  record Constant(float value) implements LearningRate {
    @Override
    public float rate(long step) {
      return value;
    }

    @Override
    public String toString() {
      return "constant(" + value + ")";
    }
  }

  record Step(float start, float factor, int every) implements LearningRate {
    @Override
    public float rate(long step) {
      return (float) (start * Math.pow(factor, Math.floorDiv(Math.max(step, 0), every)));
    }

    @Override
    public float base() {
      return start;
    }

    @Override
    public String toString() {
      return "step(" + start + ", factor " + factor + " every " + every + " steps)";
    }
  }

  record Cosine(float start, float floor, int steps) implements LearningRate {
    @Override
    public float rate(long step) {
      double progress = Math.min(Math.max(step, 0), steps) / (double) steps;
      return (float) (floor + (start - floor) * (1 + Math.cos(Math.PI * progress)) / 2);
    }

    @Override
    public float base() {
      return start;
    }

    @Override
    public String toString() {
      return "cosine(" + start + " to " + floor + " over " + steps + " steps)";
    }
  }

  record Warmup(LearningRate after, int steps) implements LearningRate {
    @Override
    public float rate(long step) {
      if (step < steps) {
        return (float) ((double) after.base() * (Math.max(step, 0) + 1) / steps);
      }
      return after.rate(step - steps);
    }

    @Override
    public float base() {
      return after.base();
    }

    @Override
    public String toString() {
      return after + " after " + steps + " warm-up steps";
    }
  }
}
