package dev.kiln.sample;

import dev.kiln.listeners.ChartWriter;
import dev.kiln.listeners.ProgressListener;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.dist.Node;
import dev.kiln.runtime.graph.precision.Precision;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.mxnet.OmpThreads;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.optim.AdamW;
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.optim.LearningRate;
import dev.kiln.runtime.optim.Optimizer;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.CsvLogger;
import dev.kiln.runtime.train.EpochStats;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitContext;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.Fitter;
import dev.kiln.runtime.train.TrainingListener;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code train}: trains a model on the training split (the training set less its last twelfth, held
 * out for validation), writes its checkpoint, metrics CSV and chart, and measures the test set once
 * at the end.
 */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    description =
        "Train a model on the first 11/12 of the training set, validating on the last 1/12 "
            + "(5,000 images) after every epoch; write its checkpoint, NAME-metrics.csv and "
            + "NAME-training.png to --out; measure the test set once, at the end.")
final class Train implements Callable<Integer> {
  /** The optimizers, by command-line name. */
  private static final List<String> OPTIMIZERS = List.of("sgd", "momentum", "adam", "adamw");

  /** The learning-rate schedules, by command-line name. */
  private static final List<String> SCHEDULES = List.of("constant", "cosine", "decay");

  @Spec CommandSpec spec;

  @Mixin Data data;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      defaultValue = "mlp",
      description =
          "Model: mlp, lenet, lstm, conv1d, autoencoder or vit (default: ${DEFAULT-VALUE}).")
  SampleModel.Kind model;

  @Option(
      names = "--epochs",
      description =
          "Passes over the training split (default: 10 for mlp, lstm and vit, 8 for lenet and "
              + "conv1d, 5 for autoencoder).")
  Integer epochs;

  @Option(
      names = "--batch-size",
      description =
          "Examples per step (default: 32 for mlp, lenet and conv1d, 64 for lstm, "
              + "autoencoder and vit).")
  Integer batchSize;

  @Option(
      names = "--optimizer",
      description =
          "sgd, momentum (SGD with Nesterov momentum 0.9), adam or adamw (default: sgd for "
              + "lenet, adamw for vit, adam for the others).")
  String optimizer;

  @Option(
      names = "--lr",
      description =
          "Learning rate (default: 0.001 for adam and adamw, 0.1 for sgd, 0.05 for momentum).")
  Float learningRate;

  @Option(
      names = "--schedule",
      description =
          "Learning-rate schedule: constant, cosine (decays to 0 over the run) or decay (times "
              + "--lr-decay after every epoch; default: decay for lenet, cosine for the others).")
  String schedule;

  @Option(
      names = "--lr-decay",
      defaultValue = "0.8",
      description = "Factor per epoch of the decay schedule (default: ${DEFAULT-VALUE}).")
  float lrDecay;

  @Option(
      names = "--weight-decay",
      description =
          "L2 weight decay (decoupled for adamw; default: 0.05 for vit, 0 for the others).")
  Float weightDecay;

  @Option(
      names = "--seed",
      defaultValue = "0",
      description = "Seed for initialisation and shuffling (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "out",
      description =
          "Output directory (default: ${DEFAULT-VALUE}); the checkpoint is DIR/NAME. A "
              + "checkpoint already there is kept as DIR/NAME.1 (then .2, ...).")
  Path out;

  @Option(
      names = "--overwrite",
      description = "Replace a checkpoint already at DIR/NAME instead of keeping it.")
  boolean overwrite;

  @Option(
      names = "--contexts",
      defaultValue = "1",
      description =
          "CPU contexts to train on data-parallel in this process, each a replica on its own "
              + "MXNet engine worker; run with OMP_NUM_THREADS=1 and at most one context per core "
              + "(default: ${DEFAULT-VALUE}).")
  int contexts;

  @Option(
      names = "--precision",
      defaultValue = "fp32",
      paramLabel = "fp32|bf16",
      description =
          "bf16: convolutions and dense layers in bfloat16 with float32 master weights, on a CPU "
              + "with AVX-512 BF16, one context (default: ${DEFAULT-VALUE}).")
  String precision;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description =
          "Use only the first N training images (the last twelfth of them validates) and the "
              + "first N test images (for a quick try; default: all).")
  Integer limit;

  @Option(
      names = "--updates",
      defaultValue = "workers",
      description =
          "In a distributed job, where the optimizer runs: workers (each applies it to the summed "
              + "gradients), servers (MXNet's parameter servers apply it and the workers pull "
              + "the parameters) or async (dist_async: the servers apply each worker's gradient "
              + "as it arrives, no worker waits for another; default: ${DEFAULT-VALUE}).")
  String updates;

  @Option(
      names = "--compression",
      defaultValue = "none",
      paramLabel = "none|2bit[:THRESHOLD]",
      description =
          "In a distributed job, push gradients in MXNet's 2bit compression (each value as "
              + "+-THRESHOLD or 0, the rest carried to the next push; THRESHOLD 0.5 by default); "
              + "the pull stays full size. Needs --updates workers.")
  String compression;

  @Option(
      names = "--time-pushpull",
      description =
          "In a data-parallel run, measure the time every step spends in the key-value store's "
              + "push and pull and print it at the end (waits for each step's arrays, so it costs "
              + "a little speed).")
  boolean timePushPull;

  @Option(
      names = "--resume",
      paramLabel = "PREFIX",
      description = "Start from checkpoint PREFIX (a run's out/NAME) instead of a fresh model.")
  Path resume;

  /** Every option, checked and with its default filled in, before any work. */
  private record Settings(
      int epochs,
      int batchSize,
      String optimizer,
      String schedule,
      float weightDecay,
      DataParallel.Updates updates,
      float twoBitThreshold,
      boolean distributed,
      Precision precision) {}

  @Override
  public Integer call() throws Exception {
    Settings s = settings();
    PrintStream o = System.out;
    FashionMnist all = data.load();
    if (limit != null) {
      all = all.first(limit);
    }
    Dataset train = model.examples(all.trainSplit());
    Dataset validation = model.examples(all.validationSplit());
    Dataset test = model.examples(all.test());
    // A worker of a job trains on its shard: its schedule runs over the steps it takes.
    int stepsPerEpoch =
        s.distributed()
            ? DataLoader.of(train, s.batchSize()).shard(0, Node.workers()).batchesPerEpoch()
            : train.batchCount(s.batchSize());
    long totalSteps = (long) s.epochs() * stepsPerEpoch;
    o.printf(
        Locale.ROOT,
        "Fashion-MNIST from %s: %d training images, %d held out for validation (the last "
            + "twelfth of the training set), %d test images%n",
        data.dir,
        train.size(),
        validation.size(),
        test.size());
    o.println("MXNet: " + OmpThreads.inUse());
    if (s.distributed()) {
      o.printf(
          Locale.ROOT,
          "this worker trains on its shard: 1/%d of the %d training images%n",
          Node.workers(),
          train.size());
    }
    Path prefix = out.resolve(model.cliName);
    Files.createDirectories(out);
    try (SampleModel sample =
            resume != null ? Checkpoints.load("--resume", model, resume) : model.create(seed);
        Optimizer opt = optimizer(s, totalSteps, stepsPerEpoch);
        DataParallel dp =
            s.distributed()
                ? DataParallel.distributed(sample.model(), s.updates(), s.twoBitThreshold())
                : contexts > 1 ? DataParallel.local(sample.model(), contexts) : null) {
      int rank = dp == null ? 0 : dp.rank();
      boolean lead = rank == 0;
      if (s.precision() != Precision.FP32) {
        sample.model().trainingPrecision(s.precision());
        o.printf(
            Locale.ROOT,
            "training in %s: convolutions and dense layers in bfloat16, float32 master weights%n",
            s.precision().label());
      }
      if (lead) {
        o.print(sample.summary());
        if (resume != null) {
          o.println(
              "resuming from "
                  + Checkpoints.prefix(resume)
                  + ": training starts from its parameters (epochs count from 1 again; the "
                  + "optimizer's state starts afresh)");
        }
        String kept = Checkpoints.keepPrevious(prefix, overwrite);
        if (kept != null) {
          Node.result(rank, kept);
        }
      }
      DataLoader loader = DataLoader.of(train, s.batchSize()).shuffled(seed);
      List<TrainingListener> listeners =
          new ArrayList<>(
              List.of(
                  new ProgressListener(),
                  new CsvLogger(Checkpoints.metricsFile(prefix)),
                  new ChartWriter(Checkpoints.chartFile(prefix))));
      if (s.distributed()) {
        // Rank 0 writes the checkpoint after every epoch, so a job can be resumed from it.
        listeners.add(
            new TrainingListener() {
              @Override
              public void onEpochEnd(FitContext context, EpochStats epoch) {
                sample.model().save(prefix);
              }
            });
      }
      TrainingListener[] listening = listeners.toArray(new TrainingListener[0]);
      FitResult r;
      if (dp == null) {
        r = sample.model().fitter().fit(loader, validation, s.epochs(), opt, listening);
      } else {
        if (!(opt instanceof FusedOptimizer fused)) {
          throw new IllegalStateException("data-parallel training needs a Kiln optimizer");
        }
        if (lead) {
          o.println(describe(dp, s));
        }
        dp.timeCommunication(timePushPull);
        r =
            dp.fit(
                s.distributed() ? loader.shard(dp.rank(), dp.workers()) : loader,
                validation,
                s.epochs(),
                fused,
                listening);
        o.println(throughput(dp, s));
      }
      if (!lead) {
        return r.stopReason() == null ? 0 : 3;
      }
      sample.model().save(prefix);
      Path pictures = null;
      if (model.reconstructs()) {
        pictures = Reconstructions.file(prefix);
        Reconstructions.write(sample.model(), test, pictures);
      }
      Fitter fitter = sample.model().fitter();
      report(rank, r, prefix, pictures, fitter.metric(), fitter.evaluate(test));
      return r.stopReason() == null ? 0 : 3;
    } catch (RuntimeException e) {
      if (s.distributed()) {
        Node.fail(e);
      }
      throw e;
    }
  }

  /**
   * Checks every option and fills in the model's defaults, before any work is done. A bad value is
   * a usage error (exit 2, with the usage line); a checkpoint to resume from that is not there is a
   * refused request (exit 1).
   */
  private Settings settings() {
    int e = epochs != null ? epochs : model.epochs;
    int b = batchSize != null ? batchSize : model.batchSize;
    String opt = (optimizer != null ? optimizer : model.optimizer).toLowerCase(Locale.ROOT);
    String sched = (schedule != null ? schedule : model.schedule).toLowerCase(Locale.ROOT);
    if (e < 1) {
      throw usage("--epochs must be at least 1, got " + e);
    }
    if (b < 1) {
      throw usage("--batch-size must be at least 1, got " + b);
    }
    if (limit != null && limit < 2) {
      throw usage(
          "--limit must be at least 2 (one image to train on, one held out for validation), "
              + "got "
              + limit);
    }
    if (!OPTIMIZERS.contains(opt)) {
      throw usage("unknown optimizer '" + optimizer + "'; choose " + String.join(", ", OPTIMIZERS));
    }
    if (!SCHEDULES.contains(sched)) {
      throw usage("unknown schedule '" + schedule + "'; choose " + String.join(", ", SCHEDULES));
    }
    if (learningRate != null && !(learningRate > 0 && Float.isFinite(learningRate))) {
      throw usage("--lr must be a positive number, got " + learningRate);
    }
    if (!(lrDecay > 0 && lrDecay <= 1)) {
      throw usage("--lr-decay must be in (0, 1] (the factor per epoch), got " + lrDecay);
    }
    float decay = weightDecay != null ? weightDecay : model.weightDecay;
    if (!(decay >= 0 && Float.isFinite(decay))) {
      throw usage("--weight-decay must be 0 or more, got " + decay);
    }
    DataParallel.Updates where =
        switch (updates.toLowerCase(Locale.ROOT)) {
          case "workers" -> DataParallel.Updates.ON_WORKERS;
          case "servers" -> DataParallel.Updates.ON_SERVERS;
          case "async" -> DataParallel.Updates.ASYNC;
          default -> throw usage("--updates " + updates + ": choose workers, servers or async");
        };
    if (contexts < 1) {
      throw usage("--contexts must be at least 1, got " + contexts);
    }
    Precision lowered;
    try {
      lowered = Precision.of(precision);
    } catch (IllegalArgumentException bad) {
      throw usage("--precision " + precision + ": choose fp32 or bf16");
    }
    if (lowered != Precision.FP32 && (contexts > 1 || Node.isWorker())) {
      throw usage(
          "--precision "
              + lowered.label()
              + " trains on one context in one process; data-parallel and distributed training "
              + "run in fp32");
    }
    if (lowered.refusal() != null) {
      throw usage("--precision " + lowered.label() + ": " + lowered.refusal());
    }
    boolean distributed = Node.isWorker();
    if (distributed && contexts > 1) {
      throw usage(
          "--contexts "
              + contexts
              + " in a distributed job: each worker trains on one context; start more workers "
              + "instead");
    }
    if (!distributed && where.onServers()) {
      throw usage(
          "--updates "
              + updates
              + ": this run is one process, which has no parameter servers; it "
              + "applies to a job started with launch");
    }
    int cores = Runtime.getRuntime().availableProcessors();
    if (contexts > cores) {
      spec.commandLine()
          .getErr()
          .printf(
              Locale.ROOT,
              "warning: --contexts %d on a machine with %d cores: the contexts share cores, "
                  + "which is slower than one context per core%n",
              contexts,
              cores);
    }
    if (resume != null) {
      Path params = Checkpoint.paramsFile(Checkpoints.prefix(resume));
      if (!Files.isRegularFile(params)) {
        throw new IllegalArgumentException(
            "--resume "
                + resume
                + ": there is no checkpoint there ("
                + params
                + " does not exist); give the prefix a train run wrote, e.g. out/"
                + model.cliName);
      }
    }
    float threshold = twoBitThreshold();
    if (threshold != 0 && !distributed) {
      throw usage(
          "--compression "
              + compression
              + ": this run is one process, which pushes no gradients; it applies to a job "
              + "started with launch");
    }
    if (threshold != 0 && where != DataParallel.Updates.ON_WORKERS) {
      throw usage(
          "--compression " + compression + " needs --updates workers, not --updates " + updates);
    }
    return new Settings(e, b, opt, sched, decay, where, threshold, distributed, lowered);
  }

  /** {@code --compression}'s threshold, 0 for none. */
  private float twoBitThreshold() {
    String c = compression.toLowerCase(Locale.ROOT);
    if (c.equals("none")) {
      return 0;
    }
    if (c.equals("2bit")) {
      return 0.5f;
    }
    if (c.startsWith("2bit:")) {
      try {
        float t = Float.parseFloat(c.substring(5));
        if (t > 0 && Float.isFinite(t)) {
          return t;
        }
      } catch (NumberFormatException e) {
        // Reported below.
      }
    }
    throw usage(
        "--compression "
            + compression
            + ": choose none, 2bit or 2bit:THRESHOLD (a positive number, e.g. 2bit:0.5)");
  }

  /** A usage mistake: exit 2, with the usage line. */
  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  /**
   * The last lines: how training went, the files written, and the test result (accuracy, or the
   * autoencoder's mean squared error), measured once.
   */
  private void report(
      int rank, FitResult r, Path prefix, Path pictures, String metric, Evaluation test) {
    if (r.stopReason() != null) {
      Node.result(rank, "stopped early: " + r.stopReason());
    }
    String named = metric.equals("accuracy") ? "acc" : metric;
    EpochStats last = r.last();
    if (last != null) {
      double seconds = r.epochs().stream().mapToDouble(EpochStats::seconds).sum();
      Node.result(
          rank,
          String.format(
              Locale.ROOT,
              "trained %d epoch%s in %.1f s; last epoch: train loss %.4f %s %.4f, validation "
                  + "loss %.4f %s %.4f",
              r.epochs().size(),
              r.epochs().size() == 1 ? "" : "s",
              seconds,
              last.trainLoss(),
              named,
              last.trainMetric(),
              last.validation().loss(),
              named,
              last.validation().metric()));
    }
    List<Path> written = new ArrayList<>(Checkpoints.files(prefix));
    if (pictures != null) {
      written.add(pictures);
    }
    Node.result(
        rank, "wrote " + written.stream().map(Path::toString).collect(Collectors.joining(", ")));
    Node.result(
        rank,
        String.format(
            Locale.ROOT,
            "test %s %.4f (loss %.4f, %d test images, measured once after training)",
            metric.equals("mse") ? "MSE" : metric,
            test.metric(),
            test.loss(),
            test.examples()));
  }

  private static String describe(DataParallel dp, Settings s) {
    return s.distributed()
        ? "data-parallel: "
            + dp.workers()
            + " workers, "
            + s.batchSize()
            + " examples per step per worker ("
            + s.batchSize() * dp.workers()
            + " per step of the job), updates on the "
            + switch (dp.updates()) {
              case ON_WORKERS -> "workers";
              case ON_SERVERS -> "servers";
              case ASYNC -> "servers, asynchronously (dist_async)";
            }
            + (s.twoBitThreshold() != 0
                ? ", gradients pushed in 2bit compression at " + s.twoBitThreshold()
                : "")
        : "data-parallel: "
            + dp.contexts()
            + " CPU contexts, each step's "
            + s.batchSize()
            + " examples split between them";
  }

  private String throughput(DataParallel dp, Settings s) {
    DataParallel.Communication c = dp.communication();
    String line =
        String.format(
            Locale.ROOT,
            s.distributed()
                ? "data-parallel rank %d: %d steps in %.1f s of training (%.1f steps/s, %.0f "
                    + "examples/s per worker)"
                : "data-parallel over %d contexts: %d steps in %.1f s of training (%.1f steps/s, "
                    + "%.0f examples/s in all)",
            s.distributed() ? dp.rank() : dp.contexts(),
            c.steps(),
            c.stepSeconds(),
            c.stepsPerSecond(),
            c.stepsPerSecond() * s.batchSize());
    if (timePushPull) {
      line += String.format(Locale.ROOT, ", push and pull %.2f ms per step", c.millisPerStep());
    }
    return line;
  }

  private Optimizer optimizer(Settings s, long totalSteps, int stepsPerEpoch) {
    float lr =
        learningRate != null
            ? learningRate
            : switch (s.optimizer()) {
              case "sgd" -> 0.1f;
              case "momentum" -> 0.05f;
              default -> 0.001f;
            };
    LearningRate rate =
        switch (s.schedule()) {
          case "constant" -> LearningRate.constant(lr);
          case "cosine" ->
              LearningRate.cosine(lr, 0f, (int) Math.min(Integer.MAX_VALUE, totalSteps));
          default -> LearningRate.step(lr, lrDecay, stepsPerEpoch);
        };
    return switch (s.optimizer()) {
      case "sgd" -> Sgd.builder().schedule(rate).weightDecay(s.weightDecay()).build();
      case "momentum" ->
          Sgd.builder()
              .schedule(rate)
              .momentum(0.9f)
              .nesterov(true)
              .weightDecay(s.weightDecay())
              .build();
      case "adam" -> Adam.builder().schedule(rate).weightDecay(s.weightDecay()).build();
      default -> AdamW.builder().schedule(rate).weightDecay(s.weightDecay()).build();
    };
  }
}
