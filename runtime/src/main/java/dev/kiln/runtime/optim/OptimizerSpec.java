package dev.kiln.runtime.optim;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A Kiln optimizer written as one line of text and read back, so that another process can run the
 * same optimizer: the servers of a distributed job update the parameters with the workers'
 * optimizer ({@code dev.kiln.runtime.dist.DataParallel}'s {@code Updates.ON_SERVERS}).
 *
 * <p>The text is {@code name key=value ...}, e.g. {@code adam schedule=cosine:0.001:0.0:9380 wd=0.0
 * clip=-1.0 norm=0.0 rescale=1.0 beta1=0.9 beta2=0.999 eps=1.0E-8}; floats are written as Java
 * writes them, which reads back to the same bits. Only the built-in schedules ({@link
 * LearningRate#constant}, {@link LearningRate#step}, {@link LearningRate#cosine}, with or without
 * {@link LearningRate#withWarmup}) can be written. The step count is not part of it: a read
 * optimizer starts at step 0.
 */
public final class OptimizerSpec {
  private OptimizerSpec() {}

  /**
   * The text of {@code optimizer}.
   *
   * @throws IllegalArgumentException if its schedule is not one of the built-in ones
   */
  public static String write(FusedOptimizer optimizer) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("schedule", schedule(optimizer.schedule()));
    v.put("wd", Float.toString(optimizer.weightDecay()));
    v.put("clip", Float.toString(optimizer.clipGradient()));
    v.put("norm", Float.toString(optimizer.clipGlobalNorm()));
    v.put("rescale", Float.toString(optimizer.rescaleGrad()));
    String name;
    if (optimizer instanceof Sgd sgd) {
      name = "sgd";
      v.put("momentum", Float.toString(sgd.momentum()));
      v.put("nesterov", Boolean.toString(sgd.nesterov()));
    } else if (optimizer instanceof MomentOptimizer m) {
      name = m instanceof AdamW ? "adamw" : "adam";
      v.put("beta1", Float.toString(m.beta1()));
      v.put("beta2", Float.toString(m.beta2()));
      v.put("eps", Float.toString(m.epsilon()));
    } else {
      throw new IllegalArgumentException("cannot write optimizer " + optimizer);
    }
    StringBuilder b = new StringBuilder(name);
    v.forEach((key, value) -> b.append(' ').append(key).append('=').append(value));
    return b.toString();
  }

  /**
   * A new optimizer from the text {@link #write} gave.
   *
   * @throws IllegalArgumentException if the text is not such a line, naming what is wrong
   */
  public static FusedOptimizer read(String text) {
    String[] parts = text.strip().split(" +");
    Map<String, String> v = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "optimizer spec '" + text + "': expected key=value, " + "got '" + parts[i] + "'");
      }
      v.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
    }
    FusedOptimizer.Builder<?> b =
        switch (parts[0]) {
          case "sgd" ->
              Sgd.builder()
                  .momentum(number(v, "momentum", text))
                  .nesterov(Boolean.parseBoolean(value(v, "nesterov", text)));
          case "adam" -> moments(Adam.builder(), v, text);
          case "adamw" -> moments(AdamW.builder(), v, text);
          default ->
              throw new IllegalArgumentException(
                  "optimizer spec '"
                      + text
                      + "': unknown "
                      + "optimizer '"
                      + parts[0]
                      + "'; expected sgd, adam or adamw");
        };
    b.schedule(readSchedule(value(v, "schedule", text), text));
    float wd = number(v, "wd", text);
    if (wd != 0) {
      b.weightDecay(wd);
    }
    float clip = number(v, "clip", text);
    if (clip > 0) {
      b.clipGradient(clip);
    }
    float norm = number(v, "norm", text);
    if (norm > 0) {
      b.clipGlobalNorm(norm);
    }
    b.rescaleGrad(number(v, "rescale", text));
    return b.build();
  }

  private static <B extends FusedOptimizer.MomentsBuilder<B>> B moments(
      B b, Map<String, String> v, String text) {
    return b.beta1(number(v, "beta1", text))
        .beta2(number(v, "beta2", text))
        .epsilon(number(v, "eps", text));
  }

  private static String schedule(LearningRate rate) {
    if (rate instanceof Schedules.Constant c) {
      return "constant:" + c.value();
    }
    if (rate instanceof Schedules.Step s) {
      return "step:" + s.start() + ":" + s.factor() + ":" + s.every();
    }
    if (rate instanceof Schedules.Cosine c) {
      return "cosine:" + c.start() + ":" + c.floor() + ":" + c.steps();
    }
    if (rate instanceof Schedules.Warmup w) {
      return "warmup:" + w.steps() + ":" + schedule(w.after());
    }
    throw new IllegalArgumentException(
        "schedule "
            + rate
            + " is not one of Kiln's own "
            + "(constant, step, cosine, with or without warm-up), so it cannot be sent to another "
            + "process");
  }

  private static LearningRate readSchedule(String s, String text) {
    String[] p = s.split(":", 3);
    try {
      return switch (p[0].toLowerCase(Locale.ROOT)) {
        case "constant" -> LearningRate.constant(Float.parseFloat(p[1]));
        case "step" -> {
          String[] q = s.split(":");
          yield LearningRate.step(
              Float.parseFloat(q[1]), Float.parseFloat(q[2]), Integer.parseInt(q[3]));
        }
        case "cosine" -> {
          String[] q = s.split(":");
          yield LearningRate.cosine(
              Float.parseFloat(q[1]), Float.parseFloat(q[2]), Integer.parseInt(q[3]));
        }
        case "warmup" -> readSchedule(p[2], text).withWarmup(Integer.parseInt(p[1]));
        default -> throw new IllegalArgumentException("unknown schedule '" + p[0] + "'");
      };
    } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
      throw new IllegalArgumentException(
          "optimizer spec '" + text + "': malformed schedule '" + s + "'", e);
    }
  }

  private static String value(Map<String, String> v, String key, String text) {
    String value = v.get(key);
    if (value == null) {
      throw new IllegalArgumentException("optimizer spec '" + text + "' has no " + key);
    }
    return value;
  }

  private static float number(Map<String, String> v, String key, String text) {
    try {
      return Float.parseFloat(value(v, key, text));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "optimizer spec '" + text + "': " + key + " is not a " + "number", e);
    }
  }
}
