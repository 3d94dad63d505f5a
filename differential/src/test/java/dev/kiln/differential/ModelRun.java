package dev.kiln.differential;

import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.NoopTranslator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The checks of one model, run in order as the steps of one test container: compile, then (1)
 * repeated inference is exact and leaves the parameters alone, (2) rows do not depend on the batch
 * size, (3) outputs are finite, (6) {@code backward} matches finite differences, (4) after a few
 * training steps 1 to 3 still hold, (9) a fused inference-only predictor (MXNet's oneDNN pass)
 * computes the model's own inference outputs within {@link #FUSED_RTOL}, (5) a saved and loaded
 * model computes the same outputs, (8) DJL loading the checkpoint computes them too; and it
 * prepares the job that the second JVM, without oneDNN, runs for check 7.
 *
 * <p>Every failure names the model, its seed and the check, and carries the model's full source so
 * that it can be kept as a regression case; the source is also written to {@code failed/<name>/}
 * under the work folder.
 */
final class ModelRun implements AutoCloseable {
  /** Batch tolerance: oneDNN may pick other kernels for another batch size. */
  static final double BATCH_RTOL = 1e-4;

  static final double BATCH_ATOL = 1e-5;

  /** Check 9: a fused predictor's outputs against the unfused model's, relative. */
  static final double FUSED_RTOL = 1e-5;

  private static final float LEARNING_RATE = 0.01f;

  /** How far check 6 moves every trainable parameter first (see GradientChecker#jittered). */
  private static final double JITTER = 0.05;

  private static final int TRAINING_STEPS = 3;

  /** Gradients this small are float rounding of what is zero, not a signal to train on. */
  private static final float RESIDUE = 1e-6f;

  /** {@code Dim.STEPS} in a declared input shape. */
  private static final int STEPS = -5;

  /** A {@code Dim.STEPS} input gets 1 to this many steps. */
  private static final int MAX_STEPS = 6;

  private final ModelCase c;
  private final Path dir;
  private final Path classesDir;
  private final Random rng;
  private final int mxSeed;
  private final NDManager nd = NDManager.newBaseManager();
  private ModelCompiler.Compiled compiled;
  private DiffModel model;
  private SymbolInfo info;
  private int batch;
  private int smaller;
  private Feeds.Arrays big;
  private Feeds.Arrays small;
  private String broken;
  private SecondJvm.Job job;

  /** A run of {@code c} whose files live in {@code dir}; class files go to {@code classesDir}. */
  ModelRun(ModelCase c, Path dir, Path classesDir) {
    this.c = c;
    this.dir = dir;
    this.classesDir = classesDir;
    this.rng = new Random(c.seed() ^ 0x5DEECE66DL);
    this.mxSeed = (int) (Math.abs(c.seed()) % 100_000) + 1;
  }

  /** The case being run. */
  ModelCase modelCase() {
    return c;
  }

  /** The job for the second JVM, or null when the checks did not get that far. */
  SecondJvm.Job job() {
    return job;
  }

  /** Why the second JVM does not check this model, or null. */
  String secondJvmSkip() {
    return info != null && info.recurrent()
        ? "recurrent layers refuse to build with MXNET_MKLDNN_ENABLED=0 (the native RNN kernel's"
            + " parameter gradients with grad_req add are wrong, apache/mxnet#17898)"
        : null;
  }

  /** The steps, in order, each a named check. */
  List<Map.Entry<String, Runnable>> steps() {
    List<Map.Entry<String, Runnable>> s = new ArrayList<>();
    s.add(Map.entry("compile with the Kiln processor", this::compile));
    s.add(Map.entry("1 repeated inference is exact", () -> repeated("")));
    s.add(Map.entry("2 rows do not depend on the batch size", () -> batchIndependence("")));
    s.add(Map.entry("3 outputs are finite", () -> finite("")));
    s.add(Map.entry("6 backward matches finite differences", this::gradients));
    s.add(Map.entry("4 training steps, then 1-3 again", this::training));
    s.add(Map.entry("9 a fused predictor gives the same outputs", this::fused));
    s.add(Map.entry("5 save and load give the same outputs", this::saveAndLoad));
    s.add(Map.entry("8 DJL loading the checkpoint gives the same outputs", this::djl));
    if (c.onnxResource() != null) {
      s.add(
          Map.entry("10 with the file's weights, ONNX Runtime gives the same outputs", this::ort));
    }
    return s;
  }

  /** Runs every step in order; the first failure is thrown, then the model is closed. */
  void runAll() {
    try {
      for (Map.Entry<String, Runnable> s : steps()) {
        run(s.getKey(), s.getValue());
      }
    } finally {
      close();
    }
  }

  /** Runs {@code step} unless an earlier step left nothing to check. */
  void run(String name, Runnable step) {
    if (broken != null && !name.startsWith("compile")) {
      throw new TestAbortedException(c.label() + ": not run, " + broken);
    }
    try {
      step.run();
    } catch (AssertionFailedError | TestAbortedException e) {
      throw e;
    } catch (RuntimeException | Error e) {
      throw failure(name, "threw " + e, e);
    }
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Check 10, for a model that imports an ONNX file: with the file's own weights loaded ({@code
   * loadImported}), Kiln's inference outputs equal ONNX Runtime's on the same file and inputs,
   * within 1e-5 relative to the output's largest value; and the model exported again ({@code
   * exportOnnx}) computes them in ONNX Runtime too.
   */
  private void ort() {
    String check = "10 ONNX Runtime";
    String resource = c.onnxResource();
    Path file = dir.resolve(Path.of(resource).getFileName());
    Path exported = dir.resolve("exported.onnx");
    try {
      Files.createDirectories(dir);
      Files.write(file, c.resources().get(resource));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    model.loadImported(file);
    Feeds.Arrays expected = infer(model, big);
    compareWithOrt(check, "the file", file, expected);
    try {
      model.exportOnnx(exported);
    } catch (RuntimeException e) {
      throw failure(check, "exportOnnx refused the imported model: " + e.getMessage(), e);
    }
    compareWithOrt(check, "the file exportOnnx wrote", exported, expected);
  }

  /** ONNX Runtime on {@code file} with this run's inputs gives {@code expected}, else a failure. */
  private void compareWithOrt(String check, String what, Path file, Feeds.Arrays expected) {
    List<String> names = model.inputNames();
    try (ai.onnxruntime.OrtEnvironment env = ai.onnxruntime.OrtEnvironment.getEnvironment();
        ai.onnxruntime.OrtSession.SessionOptions options =
            new ai.onnxruntime.OrtSession.SessionOptions()) {
      options.setIntraOpNumThreads(1);
      try (ai.onnxruntime.OrtSession session = env.createSession(file.toString(), options)) {
        Map<String, ai.onnxruntime.OnnxTensor> feed = new LinkedHashMap<>();
        try {
          for (int i = 0; i < names.size(); i++) {
            long[] shape = java.util.Arrays.stream(big.shapes()[i]).asLongStream().toArray();
            feed.put(
                names.get(i),
                ai.onnxruntime.OnnxTensor.createTensor(
                    env, java.nio.FloatBuffer.wrap(big.values()[i]), shape));
          }
          try (ai.onnxruntime.OrtSession.Result out = session.run(feed)) {
            if (out.size() != expected.count()) {
              throw failure(
                  check,
                  "ONNX Runtime on "
                      + what
                      + " returned "
                      + out.size()
                      + " outputs, Kiln "
                      + expected.count(),
                  null);
            }
            for (int k = 0; k < expected.count(); k++) {
              java.nio.FloatBuffer b = ((ai.onnxruntime.OnnxTensor) out.get(k)).getFloatBuffer();
              float[] actual = new float[b.remaining()];
              b.get(actual);
              String diff = Compare.close(actual, expected.values()[k], 1e-5, 1e-5);
              if (diff != null) {
                throw failure(
                    check,
                    "output " + output(k) + " differs from ONNX Runtime's on " + what + ": " + diff,
                    null);
              }
            }
          }
        } finally {
          feed.values().forEach(ai.onnxruntime.OnnxTensor::close);
        }
      }
    } catch (ai.onnxruntime.OrtException e) {
      throw failure(check, "ONNX Runtime rejects " + what + " or its inputs: " + e, e);
    }
  }

  private void compile() {
    try {
      compiled = ModelCompiler.compile(c);
    } catch (ModelCompiler.CompileException e) {
      broken = "the model did not compile";
      throw failure(
          "compile",
          (c.regression() ? "" : "generator bug or processor bug: ") + e.getMessage(),
          null);
    }
    compiled.writeClasses(classesDir);
    List<String> lint = compiled.warnings().stream().filter(w -> !w.contains("[kiln:")).toList();
    try {
      model = DiffModel.create(compiled.loader(), c.modelInterface(), c.init(), c.seed());
    } catch (RuntimeException e) {
      broken = "the model could not be created";
      throw failure("create", "XModel.create threw " + e, e);
    }
    info = SymbolInfo.parse(model.symbolJson(), model.inputNames());
    List<Set<String>> reordered = model.reorderedWeights();
    if (!reordered.get(0).equals(reordered.get(1))) {
      throw failure(
          "create",
          "the graph builder recorded the weights oneDNN may reorder as "
              + reordered.get(0)
              + ", the symbol says "
              + reordered.get(1),
          null);
    }
    batch = 2 + rng.nextInt(4);
    smaller = 1 + rng.nextInt(batch - 1);
    big = inputs(batch);
    small = firstRows(big, smaller);
    if (!lint.isEmpty()) {
      throw failure(
          "compile",
          "javac warned about generated code (it must compile without "
              + "warnings under -Xlint:all):\n"
              + String.join("\n", lint),
          null);
    }
  }

  /** Random inputs for {@code n} examples: Gaussian, or whole-number indices below the table. */
  private Feeds.Arrays inputs(int n) {
    List<String> names = model.inputNames();
    List<int[]> declared = model.inputShapes();
    float[][] v = new float[names.size()][];
    int[][] s = new int[names.size()][];
    int steps = 0;
    for (int i = 0; i < v.length; i++) {
      s[i] = declared.get(i).clone();
      for (int d = 0; d < s[i].length; d++) {
        if (s[i][d] == STEPS) {
          // Every Dim.STEPS of one call has the same size.
          if (steps == 0) {
            steps = 1 + rng.nextInt(MAX_STEPS);
          }
          s[i][d] = steps;
        } else if (s[i][d] < 0) {
          s[i][d] = d == 0 ? n : 1 + rng.nextInt(4);
        }
      }
      int size = 1;
      for (int d : s[i]) {
        size *= d;
      }
      v[i] = new float[size];
      Integer table = info.indexInputs().get(names.get(i));
      for (int j = 0; j < size; j++) {
        v[i][j] = table != null ? rng.nextInt(table) : (float) rng.nextGaussian();
      }
    }
    return new Feeds.Arrays(v, s);
  }

  private static Feeds.Arrays firstRows(Feeds.Arrays a, int rows) {
    float[][] v = new float[a.count()][];
    int[][] s = new int[a.count()][];
    for (int i = 0; i < v.length; i++) {
      s[i] = a.shapes()[i].clone();
      int per = a.values()[i].length / s[i][0];
      s[i][0] = rows;
      v[i] = java.util.Arrays.copyOf(a.values()[i], per * rows);
    }
    return new Feeds.Arrays(v, s);
  }

  private Feeds.Arrays infer(DiffModel m, Feeds.Arrays in) {
    m.setTraining(false);
    return Feeds.forward(m, nd, in);
  }

  /** Every parameter and auxiliary state, by name. */
  private Map<String, float[]> snapshot(DiffModel m) {
    Map<String, float[]> s = new LinkedHashMap<>();
    for (String p : m.paramNames()) {
      s.put(p, m.param(p));
    }
    for (String a : m.auxNames()) {
      s.put(a, m.aux(a));
    }
    return s;
  }

  private void sameState(
      String check, Map<String, float[]> expected, Map<String, float[]> actual, String what) {
    for (Map.Entry<String, float[]> e : expected.entrySet()) {
      String diff = Compare.exact(e.getValue(), actual.get(e.getKey()));
      if (diff != null) {
        throw failure(check, what + ": " + e.getKey() + " changed: " + diff, null);
      }
    }
  }

  private void repeated(String phase) {
    String check = "1 repeated inference" + phase;
    Map<String, float[]> before = snapshot(model);
    Feeds.Arrays first = infer(model, big);
    for (int r = 2; r <= 4; r++) {
      Feeds.Arrays again = infer(model, big);
      for (int k = 0; k < first.count(); k++) {
        String diff = Compare.exact(first.values()[k], again.values()[k]);
        if (diff != null) {
          throw failure(
              check,
              "inference pass "
                  + r
                  + " on the same batch of "
                  + batch
                  + " differs from pass 1 in output "
                  + output(k)
                  + ": "
                  + diff,
              null);
        }
      }
    }
    sameState(check, before, snapshot(model), "inference changed the model's state");
    if (model.stateful() && phase.isEmpty()) {
      carriedState(check, first);
    }
  }

  /**
   * A stateful model (every other check resets it before each pass): a pass right after one from
   * zeros starts from that pass's final state, which {@code readState} shows and {@code writeState}
   * restores: both give the same outputs, bit for bit, and the state stays finite.
   */
  private void carriedState(String check, Feeds.Arrays fromZeros) {
    model.setTraining(false);
    Feeds.Arrays first = Feeds.forward(model, nd, big); // resets first
    for (int k = 0; k < first.count(); k++) {
      String diff = Compare.exact(fromZeros.values()[k], first.values()[k]);
      if (diff != null) {
        throw failure(check, "after a reset, output " + output(k) + " differs: " + diff, null);
      }
    }
    Map<String, float[]> state = model.readState();
    if (state.isEmpty()) {
      throw failure(check, "a stateful model carries no state after a forward pass", null);
    }
    for (Map.Entry<String, float[]> e : state.entrySet()) {
      String bad = Compare.finite(e.getValue());
      if (bad != null) {
        throw failure(check, "carried state " + e.getKey() + ": " + bad, null);
      }
    }
    Feeds.Arrays carried = Feeds.forwardCarrying(model, nd, big);
    model.resetState();
    model.writeState(batch, state);
    Feeds.Arrays restored = Feeds.forwardCarrying(model, nd, big);
    for (int k = 0; k < carried.count(); k++) {
      String diff = Compare.exact(carried.values()[k], restored.values()[k]);
      if (diff != null) {
        throw failure(
            check,
            "output "
                + output(k)
                + " of a pass carrying the state on differs from one after writeState of the"
                + " same state: "
                + diff,
            null);
      }
      String bad = Compare.finite(carried.values()[k]);
      if (bad != null) {
        throw failure(check, "output " + output(k) + " carrying the state: " + bad, null);
      }
    }
    model.resetState();
  }

  private void batchIndependence(String phase) {
    String check = "2 batch independence" + phase;
    Feeds.Arrays full = infer(model, big);
    Feeds.Arrays part = infer(model, small);
    for (int k = 0; k < full.count(); k++) {
      float[] rows = java.util.Arrays.copyOf(full.values()[k], part.values()[k].length);
      String diff = Compare.close(rows, part.values()[k], BATCH_RTOL, BATCH_ATOL);
      if (diff != null) {
        throw failure(
            check,
            "output "
                + output(k)
                + ": the first "
                + smaller
                + " rows of a "
                + "batch of "
                + batch
                + " differ from a batch of "
                + smaller
                + ": "
                + diff,
            null);
      }
    }
    Feeds.Arrays again = infer(model, big);
    for (int k = 0; k < full.count(); k++) {
      String diff = Compare.exact(full.values()[k], again.values()[k]);
      if (diff != null) {
        throw failure(
            check,
            "output "
                + output(k)
                + " for the batch of "
                + batch
                + " changed "
                + "after a pass with batch "
                + smaller
                + " (executors share the parameters): "
                + diff,
            null);
      }
    }
  }

  private void finite(String phase) {
    String check = "3 finite outputs" + phase;
    for (Feeds.Arrays in : List.of(big, small)) {
      Feeds.Arrays out = infer(model, in);
      for (int k = 0; k < out.count(); k++) {
        String bad = Compare.finite(out.values()[k]);
        if (bad != null) {
          throw failure(
              check,
              "output " + output(k) + " for a batch of " + in.shapes()[0][0] + ": " + bad,
              null);
        }
      }
    }
  }

  private void gradients() {
    GradientChecker.Result r =
        new GradientChecker(model, nd, info, copy(big), rng, mxSeed).jittered(JITTER).run();
    if (!r.failures().isEmpty()) {
      throw failure(
          "6 gradients",
          r.failures().size()
              + " gradients differ from finite "
              + "differences:\n"
              + String.join("\n", r.failures())
              + "\n("
              + String.join("; ", r.notes())
              + ")",
          null);
    }
    boolean differentiable =
        model.paramNames().stream().anyMatch(p -> !model.isFrozen(p))
            || model.inputNames().stream().anyMatch(i -> !info.indexInputs().containsKey(i));
    if (differentiable && r.checked() == 0) {
      throw failure(
          "6 gradients",
          "no gradient element could be compared: " + String.join("; ", r.notes()),
          null);
    }
    Path notes = dir.resolve("gradient-notes.txt");
    write(notes, String.join("\n", r.notes()) + "\n");
  }

  private static Feeds.Arrays copy(Feeds.Arrays a) {
    float[][] v = new float[a.count()][];
    for (int i = 0; i < v.length; i++) {
      v[i] = a.values()[i].clone();
    }
    return new Feeds.Arrays(v, a.shapes());
  }

  private void training() {
    String check = "4 training";
    Map<String, float[]> start = snapshot(model);
    boolean anyGradient = false;
    for (int step = 0; step < TRAINING_STEPS; step++) {
      model.setTraining(true);
      DiffModel.seedMxnet(mxSeed + step);
      Feeds.Arrays out = Feeds.forward(model, nd, big);
      float[][] heads = new float[out.count()][];
      for (int k = 0; k < heads.length; k++) {
        String bad = Compare.finite(out.values()[k]);
        if (bad != null) {
          throw failure(
              check, "training-mode output " + output(k) + " at step " + step + ": " + bad, null);
        }
        heads[k] = new float[out.values()[k].length];
        for (int j = 0; j < heads[k].length; j++) {
          heads[k][j] = (float) rng.nextGaussian();
        }
      }
      Feeds.backward(model, nd, new Feeds.Arrays(heads, out.shapes()));
      for (String p : model.paramNames()) {
        float[] g = model.grad(p);
        String bad = Compare.finite(g);
        if (bad != null) {
          throw failure(check, "gradient of " + p + " at step " + step + ": " + bad, null);
        }
        for (float v : g) {
          // Below RESIDUE a gradient is float rounding, e.g. a layer norm's beta over an axis of
          // size 1 under a softmax, whose gradients sum to zero
          // (regressions/Seed21RoundingResidue).
          anyGradient |= Math.abs(v) > RESIDUE && !model.isFrozen(p);
        }
      }
      model.update(LEARNING_RATE);
    }
    Map<String, float[]> end = snapshot(model);
    boolean changed = false;
    for (String p : model.paramNames()) {
      if (model.isFrozen(p)) {
        String diff = Compare.exact(start.get(p), end.get(p));
        if (diff != null) {
          throw failure(check, "update changed frozen parameter " + p + ": " + diff, null);
        }
      } else {
        changed |= Compare.exact(start.get(p), end.get(p)) != null;
      }
    }
    if (anyGradient && !changed) {
      throw failure(
          check,
          TRAINING_STEPS + " updates with non-zero gradients changed no " + "trainable parameter",
          null);
    }
    boolean anySteps =
        model.inputShapes().stream()
            .anyMatch(s -> java.util.Arrays.stream(s).anyMatch(d -> d == STEPS));
    // The classifier view reads examples of a fixed size: it refuses Dim.STEPS.
    if (model.isClassifier() && model.inputNames().size() == 1 && !anySteps) {
      int classes = model.classes();
      int[] labels = new int[batch];
      for (int i = 0; i < batch; i++) {
        labels[i] = rng.nextInt(classes);
      }
      for (int step = 0; step < 2; step++) {
        double[] r = model.trainClassifierBatch(big.values()[0], labels, LEARNING_RATE);
        if (!Double.isFinite(r[0])) {
          throw failure(
              check, "classifier().trainBatch loss is " + r[0] + " at step " + step, null);
        }
      }
    }
    if (model.hasTrainer()) {
      lossHead(check);
    }
    repeated(" after training");
    batchIndependence(" after training");
    finite(" after training");
  }

  /**
   * A model ending in a loss head: the trainer's inference-mode loss over random targets equals the
   * loss computed here from the model's own {@code forward} (the prediction, or the probability of
   * a {@code @LogisticLoss}), and two training steps give finite losses.
   */
  private void lossHead(String check) {
    float[] x = big.values()[0];
    Feeds.Arrays out = infer(model, big);
    float[] p = out.values()[0];
    int values = p.length / batch;
    float[] t = new float[p.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = rng.nextFloat();
    }
    String kind = model.lossKind();
    double expected = 0;
    for (int i = 0; i < p.length; i++) {
      double d = p[i] - t[i];
      double loss =
          switch (kind) {
            case "L2" -> d * d / 2;
            case "L1" -> Math.abs(d);
            default -> -(t[i] * Math.log(p[i]) + (1 - t[i]) * Math.log1p(-p[i]));
          };
      expected += loss / values / batch;
    }
    double[] e = model.evaluateLossHead(x, x.length / batch, t, values);
    if (!(Math.abs(e[0] - expected) <= 1e-4 * Math.max(1, Math.abs(expected)))) {
      throw failure(
          check,
          kind
              + " head: trainer().evaluate's loss is "
              + e[0]
              + ", the loss of forward's "
              + "outputs against the same targets is "
              + expected,
          null);
    }
    for (int step = 0; step < 2; step++) {
      double loss = model.trainLossHeadBatch(x, t, batch, LEARNING_RATE);
      if (!Double.isFinite(loss)) {
        throw failure(check, "trainer().trainBatch loss is " + loss + " at step " + step, null);
      }
    }
  }

  private Path checkpoint() {
    return dir.resolve("checkpoint").resolve("model");
  }

  /**
   * Check 9: the model's inference outputs (its own executors never fuse) and a fused predictor's,
   * made from the trained weights and batch-norm statistics, agree within {@link #FUSED_RTOL} of
   * the larger magnitude (plus {@code 1e-6} of the output's largest magnitude, for values that
   * cancel to near zero).
   */
  private void fused() {
    String check = "9 fused predictor";
    Feeds.Arrays expected = infer(model, big);
    float[][] actual = model.fusedForward(big.values(), big.shapes());
    if (actual == null) {
      throw new TestAbortedException(
          c.label()
              + ": no predictor for a model with Dim.STEPS"
              + " or an input without one batch dimension");
    }
    for (int k = 0; k < expected.count(); k++) {
      String diff = Compare.close(expected.values()[k], actual[k], FUSED_RTOL, 1e-6);
      if (diff != null) {
        throw failure(check, "output " + output(k) + " of the fused predictor: " + diff, null);
      }
    }
  }

  private void saveAndLoad() {
    String check = "5 save and load";
    Path prefix = checkpoint();
    try {
      Files.createDirectories(prefix.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    model.save(prefix);
    Feeds.Arrays expected = infer(model, big);
    try (DiffModel loaded = DiffModel.load(compiled.loader(), c.modelInterface(), prefix)) {
      sameState(check, snapshot(model), snapshot(loaded), "the loaded model's state differs");
      Feeds.Arrays actual = infer(loaded, big);
      for (int k = 0; k < expected.count(); k++) {
        String diff = Compare.exact(expected.values()[k], actual.values()[k]);
        if (diff != null) {
          throw failure(
              check, "output " + output(k) + " of the loaded model differs: " + diff, null);
        }
      }
      job = secondJvmSkip() == null ? prepareJob(loaded, actual) : null;
    }
  }

  /**
   * The second JVM's job, and this JVM's answers to it from the loaded model: inference outputs,
   * then one training-mode pass (MXNet reseeded, so dropout masks can repeat) and its backward pass
   * with random head gradients.
   */
  private SecondJvm.Job prepareJob(DiffModel loaded, Feeds.Arrays outputs) {
    Map<String, ArrayFile.Array> in = new LinkedHashMap<>();
    for (int i = 0; i < big.count(); i++) {
      in.put(
          "input:" + model.inputNames().get(i),
          new ArrayFile.Array(big.shapes()[i], big.values()[i]));
    }
    float[][] heads = new float[outputs.count()][];
    for (int k = 0; k < heads.length; k++) {
      heads[k] = new float[outputs.values()[k].length];
      for (int j = 0; j < heads[k].length; j++) {
        heads[k][j] = (float) rng.nextGaussian();
      }
      in.put("head:" + output(k), new ArrayFile.Array(outputs.shapes()[k], heads[k]));
    }
    Map<String, ArrayFile.Array> expected =
        SecondJvm.compute(loaded, nd, big, new Feeds.Arrays(heads, outputs.shapes()), mxSeed);
    Path inputsFile = dir.resolve("job-inputs.bin");
    ArrayFile.write(inputsFile, in);
    return new SecondJvm.Job(
        c,
        checkpoint(),
        inputsFile,
        mxSeed,
        dir.resolve("mkldnn-off.bin"),
        expected,
        info.ops().contains("Dropout"),
        SymbolInfo.softmaxOutputs(loaded.symbolJson(), loaded.outputNames()));
  }

  private void djl() {
    String check = "8 DJL";
    if (model.paramNames().isEmpty() && model.auxNames().isEmpty()) {
      // DJL 0.36's JnaUtils.loadNdArray dereferences the name list MXNet returns as null for a
      // file of no arrays (NullPointerException); MXNet itself reads the file.
      throw new TestAbortedException(
          c.label() + ": DJL cannot load a checkpoint of a model " + "without parameters");
    }
    if (info.lastAxisSoftmaxOfConvolution()) {
      // MXNet 1.9.1 run by DJL (CachedOp) dies with SIGSEGV in MKLDNNSoftmaxForward on a softmax
      // over the last axis of a oneDNN-layout convolution output (a multiple of 8 filters);
      // Kiln's executors run the same symbol fine. A crash would end the whole run.
      throw new TestAbortedException(
          c.label()
              + ": DJL crashes on a softmax over the last "
              + "axis of a convolution's output (MXNet 1.9.1, MKLDNNSoftmaxForward)");
    }
    Feeds.Arrays expected = infer(model, big);
    List<String> args = model.argumentNames();
    List<String> inputs = model.inputNames();
    // A recurrent layer's state arguments are the symbol's too: DJL must be fed zeros for them,
    // as Kiln binds (a stateful model's checks start every call from zeros as well).
    Map<String, int[]> states = model.stateShapes(batch);
    List<String> order =
        args.stream().filter(a -> inputs.contains(a) || states.containsKey(a)).toList();
    try (Model djl = Model.newInstance(c.name(), "MXNet");
        NDManager sub = nd.newSubManager()) {
      djl.load(checkpoint().getParent(), checkpoint().getFileName().toString());
      NDArray[] all = Feeds.make(sub, big);
      NDList feed = new NDList();
      for (String name : order) {
        if (states.containsKey(name)) {
          long[] dims = java.util.Arrays.stream(states.get(name)).asLongStream().toArray();
          feed.add(sub.zeros(new ai.djl.ndarray.types.Shape(dims)));
        } else {
          feed.add(all[inputs.indexOf(name)]);
        }
      }
      try (Predictor<NDList, NDList> p = djl.newPredictor(new NoopTranslator())) {
        NDList out = p.predict(feed);
        // A stateful layer's final states are outputs of the symbol after the model's own.
        if (out.size() != expected.count()
            && !(model.stateful() && out.size() > expected.count())) {
          throw failure(
              check, "DJL returned " + out.size() + " outputs, Kiln " + expected.count(), null);
        }
        for (int k = 0; k < expected.count(); k++) {
          String diff =
              Compare.close(
                  expected.values()[k], out.get(k).toFloatArray(), BATCH_RTOL, BATCH_ATOL);
          if (diff != null) {
            throw failure(check, "output " + output(k) + " computed by DJL differs: " + diff, null);
          }
        }
      }
    } catch (ai.djl.MalformedModelException | ai.djl.translate.TranslateException | IOException e) {
      throw failure(check, "DJL cannot load or run the checkpoint: " + e, e);
    }
  }

  // ---------------------------------------------------------------------------------------------

  private String output(int k) {
    List<String> names = model.outputNames();
    return k < names.size() ? "'" + names.get(k) + "'" : "#" + k;
  }

  /** A failure naming model, seed and check, with the full source; the source is kept too. */
  AssertionFailedError failure(String check, String detail, Throwable cause) {
    Path kept = dir.getParent().getParent().resolve("failed").resolve(c.name());
    try {
      Files.createDirectories(kept);
      for (Map.Entry<String, String> e : c.sources().entrySet()) {
        String simple = e.getKey().substring(e.getKey().lastIndexOf('.') + 1);
        Files.writeString(kept.resolve(simple + ".java"), e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String message =
        c.label()
            + ", check '"
            + check
            + "' (init "
            + c.init()
            + (batch > 0 ? ", batch " + batch + " and " + smaller : "")
            + "): "
            + detail
            + "\n\nFull source ("
            + "also in "
            + kept
            + "; to keep it, copy it to src/test/resources/regressions/"
            + c.name()
            + "/):\n"
            + c.listing();
    return cause == null
        ? new AssertionFailedError(message)
        : new AssertionFailedError(message, cause);
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Frees the model and its arrays. */
  @Override
  public void close() {
    if (model != null) {
      model.close();
      model = null;
    }
    nd.close();
  }
}
