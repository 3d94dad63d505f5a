package dev.kiln.sample;

import dev.kiln.listeners.ChartWriter;
import dev.kiln.listeners.ProgressListener;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.dist.Node;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.optim.AdamW;
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.optim.LearningRate;
import dev.kiln.runtime.optim.Optimizer;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.CsvLogger;
import dev.kiln.runtime.train.EpochStats;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitContext;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.TrainingListener;
import dev.kiln.sample.bench.Bench;
import dev.kiln.sample.data.DatasetNotFoundException;
import dev.kiln.sample.data.FashionMnist;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Kiln sample app: trains, evaluates, exports, inspects and benchmarks Fashion-MNIST models
 * from the command line.
 */
@Command(
    name = "kiln-sample",
    mixinStandardHelpOptions = true,
    version = "kiln-sample 0.1.0",
    description = "Train, use and benchmark Kiln models on Fashion-MNIST, on MXNet.",
    subcommands = {
      Main.Train.class,
      Main.Eval.class,
      Main.Predict.class,
      Main.Export.class,
      Main.Summary.class,
      Launch.class,
      Bench.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Entry point. In the scheduler or a server of a distributed job (see {@code launch}) it serves
   * the job and exits; a distributed worker halts at the end (see {@link Node}).
   */
  public static void main(String[] args) {
    Node.serveIfServer();
    int code = commandLine().execute(args);
    if (Node.isWorker()) {
      Node.halt(code);
    }
    System.exit(code);
  }

  /** The configured command line (also used by tests). */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.registerConverter(SampleModel.Kind.class, SampleModel.Kind::parse);
    cl.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (e instanceof DatasetNotFoundException || e instanceof IllegalArgumentException) {
            cmd.getErr().println(e.getMessage());
            return 1;
          }
          if (e instanceof java.io.UncheckedIOException u && u.getCause() != null) {
            cmd.getErr().println(u.getCause().getMessage());
            return 1;
          }
          throw e;
        });
    return cl;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /**
   * Loads checkpoint {@code prefix} as {@code kind}, turning a missing file or a checkpoint of
   * another model into a message that names the option, the value and the fix.
   */
  static SampleModel loadCheckpoint(SampleModel.Kind kind, Path prefix) {
    Path params = prefix.resolveSibling(prefix.getFileName() + "-0000.params");
    if (!Files.isRegularFile(params)) {
      throw new IllegalArgumentException(
          "--checkpoint "
              + prefix
              + ": there is no checkpoint "
              + "there ("
              + params
              + " does not exist); give the prefix a train run wrote, e.g. "
              + "out/"
              + kind.cliName
              + " after `train --model "
              + kind.cliName
              + "`");
    }
    try {
      return kind.load(prefix);
    } catch (java.io.UncheckedIOException e) {
      String why = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
      throw new IllegalArgumentException(
          "--checkpoint "
              + prefix
              + " does not load as --model "
              + kind.cliName
              + ": "
              + why
              + "; if it is another model's checkpoint, give that "
              + "model with --model ("
              + SampleModel.Kind.names()
              + ")",
          e);
    }
  }

  /** Options every command that reads data or a model shares. */
  static final class Common {
    @Option(
        names = "--model",
        paramLabel = "NAME",
        defaultValue = "mlp",
        description = "Model: mlp, lenet or lstm (default: ${DEFAULT-VALUE}).")
    SampleModel.Kind model;

    @Option(
        names = "--data",
        paramLabel = "DIR",
        defaultValue = "/usr/share/datasets/fashion-mnist",
        description = "Directory with the Fashion-MNIST IDX files (default: ${DEFAULT-VALUE}).")
    Path data;

    FashionMnist load() throws IOException {
      return FashionMnist.load(data);
    }
  }

  /** {@code train}: trains a model and writes checkpoint, metrics CSV and chart. */
  @Command(
      name = "train",
      mixinStandardHelpOptions = true,
      description =
          "Train a model; write its checkpoint, NAME-metrics.csv and NAME-training.png "
              + "to --out.")
  static final class Train implements Callable<Integer> {
    @Mixin Common common;

    @Option(
        names = "--epochs",
        description =
            "Passes over the training set (default: 10 for " + "mlp and lstm, 8 for lenet).")
    Integer epochs;

    @Option(
        names = "--batch-size",
        description = "Examples per step (default: 32 for mlp " + "and lenet, 64 for lstm).")
    Integer batchSize;

    @Option(
        names = "--optimizer",
        description =
            "sgd, momentum (SGD with Nesterov momentum "
                + "0.9), adam or adamw (default: adam for mlp and lstm, sgd for lenet).")
    String optimizer;

    @Option(
        names = "--lr",
        description =
            "Learning rate (default: 0.001 for adam and adamw, "
                + "0.1 for sgd, 0.05 for momentum).")
    Float learningRate;

    @Option(
        names = "--schedule",
        description =
            "Learning-rate schedule: constant, cosine "
                + "(decays to 0 over the run) or decay (times --lr-decay after every epoch; default: "
                + "cosine for mlp and lstm, decay for lenet).")
    String schedule;

    @Option(
        names = "--lr-decay",
        defaultValue = "0.8",
        description = "Factor per epoch of the " + "decay schedule (default: ${DEFAULT-VALUE}).")
    float lrDecay;

    @Option(
        names = "--weight-decay",
        defaultValue = "0",
        description = "L2 weight decay " + "(decoupled for adamw; default: ${DEFAULT-VALUE}).")
    float weightDecay;

    @Option(
        names = "--seed",
        defaultValue = "0",
        description = "Seed for initialisation and " + "shuffling (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--out",
        paramLabel = "DIR",
        defaultValue = "out",
        description = "Output " + "directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
        names = "--contexts",
        defaultValue = "1",
        description =
            "CPU contexts to train on "
                + "data-parallel in this process, each a replica on its own MXNet engine worker; run "
                + "with OMP_NUM_THREADS=1 and at most one context per core (default: "
                + "${DEFAULT-VALUE}).")
    int contexts;

    @Option(
        names = "--limit",
        paramLabel = "N",
        description =
            "Use only the first N training " + "and N test images (for a quick try; default: all).")
    Integer limit;

    @Option(
        names = "--updates",
        defaultValue = "workers",
        description =
            "In a distributed job, "
                + "where the optimizer runs: workers (each applies it to the summed gradients) or "
                + "servers (MXNet's parameter servers apply it and the workers pull the parameters; "
                + "default: ${DEFAULT-VALUE}).")
    String updates;

    @Option(
        names = "--time-pushpull",
        description =
            "In a data-parallel run, measure the time "
                + "every step spends in the key-value store's push and pull and print it at the end "
                + "(waits for each step's arrays, so it costs a little speed).")
    boolean timePushPull;

    @Option(
        names = "--resume",
        paramLabel = "PREFIX",
        description =
            "Start from checkpoint " + "PREFIX (a run's out/NAME) instead of a fresh model.")
    Path resume;

    @Override
    public Integer call() throws Exception {
      int epochs = this.epochs != null ? this.epochs : common.model.epochs;
      int batchSize = this.batchSize != null ? this.batchSize : common.model.batchSize;
      if (optimizer == null) {
        optimizer = common.model.optimizer;
      }
      if (schedule == null) {
        schedule = common.model.schedule;
      }
      if (epochs < 1 || batchSize < 1) {
        throw new IllegalArgumentException(
            "--epochs and --batch-size must be at least 1, got " + epochs + " and " + batchSize);
      }
      FashionMnist data = common.load();
      if (limit != null) {
        if (limit < 1) {
          throw new IllegalArgumentException("--limit must be at least 1, got " + limit);
        }
        data = data.first(limit);
      }
      // A worker of a job trains on its shard: its schedule runs over the steps it takes.
      stepsPerEpoch =
          Node.isWorker()
              ? DataLoader.of(data.train(), batchSize).shard(0, Node.workers()).batchesPerEpoch()
              : data.train().batchCount(batchSize);
      totalSteps = (long) epochs * stepsPerEpoch;
      PrintStream o = System.out;
      o.printf(
          Locale.ROOT,
          "Fashion-MNIST: %d training and %d test images from %s%n",
          data.train().size(),
          data.test().size(),
          common.data);
      Files.createDirectories(out);
      Path prefix = out.resolve(common.model.cliName);
      Path metrics = out.resolve(common.model.cliName + "-metrics.csv");
      Path chart = out.resolve(common.model.cliName + "-training.png");
      if (contexts < 1) {
        throw new IllegalArgumentException("--contexts must be at least 1, got " + contexts);
      }
      boolean distributed = Node.isWorker();
      if (distributed && contexts > 1) {
        throw new IllegalArgumentException(
            "--contexts "
                + contexts
                + " in a distributed job: "
                + "each worker trains on one context; start more workers instead");
      }
      try (SampleModel model =
              resume != null ? loadCheckpoint(common.model, resume) : common.model.create(seed);
          Optimizer opt = optimizer();
          DataParallel dp =
              distributed
                  ? DataParallel.distributed(model.model(), updates())
                  : contexts > 1 ? DataParallel.local(model.model(), contexts) : null) {
        boolean lead = dp == null || dp.rank() == 0;
        if (lead) {
          o.print(model.summary());
        }
        DataLoader loader = DataLoader.of(data.train(), batchSize).shuffled(seed);
        List<TrainingListener> listeners =
            new ArrayList<>(
                List.of(new ProgressListener(), new CsvLogger(metrics), new ChartWriter(chart)));
        if (distributed) {
          // Rank 0 writes the checkpoint after every epoch, so a job can be resumed from it.
          listeners.add(
              new TrainingListener() {
                @Override
                public void onEpochEnd(FitContext context, EpochStats epoch) {
                  model.model().save(prefix);
                }
              });
        }
        TrainingListener[] all = listeners.toArray(new TrainingListener[0]);
        FitResult r;
        if (dp == null) {
          r = model.model().classifier().fit(loader, data.test(), epochs, opt, all);
        } else {
          if (!(opt instanceof FusedOptimizer fused)) {
            throw new IllegalStateException("data-parallel training needs a Kiln optimizer");
          }
          if (lead) {
            o.println(
                distributed
                    ? "data-parallel: "
                        + dp.workers()
                        + " workers, "
                        + batchSize
                        + " examples per step per worker ("
                        + batchSize * dp.workers()
                        + " per step of the job), updates on the "
                        + (dp.updates() == DataParallel.Updates.ON_SERVERS ? "servers" : "workers")
                    : "data-parallel: "
                        + dp.contexts()
                        + " CPU contexts, each step's "
                        + batchSize
                        + " examples split between them");
          }
          dp.timeCommunication(timePushPull);
          r =
              dp.fit(
                  distributed ? loader.shard(dp.rank(), dp.workers()) : loader,
                  data.test(),
                  epochs,
                  fused,
                  all);
          DataParallel.Communication c = dp.communication();
          String line =
              String.format(
                  Locale.ROOT,
                  "data-parallel rank %d: %d steps in %.1f s "
                      + "of training (%.1f steps/s, %.0f examples/s per worker)",
                  dp.rank(),
                  c.steps(),
                  c.stepSeconds(),
                  c.stepsPerSecond(),
                  c.stepsPerSecond() * batchSize);
          if (timePushPull) {
            line +=
                String.format(Locale.ROOT, ", push and pull %.2f ms per step", c.millisPerStep());
          }
          o.println(line);
        }
        if (!lead) {
          return r.stopReason() == null ? 0 : 3;
        }
        model.model().save(prefix);
        if (r.stopReason() != null) {
          o.println("stopped early: " + r.stopReason());
        }
        if (r.last() != null) {
          o.printf(Locale.ROOT, "test accuracy %.4f%n", r.last().validation().accuracy());
        }
        o.println(
            "wrote "
                + prefix
                + "-symbol.json, "
                + prefix
                + "-0000.params, "
                + metrics
                + ", "
                + chart);
        return r.stopReason() == null ? 0 : 3;
      } catch (RuntimeException e) {
        if (distributed) {
          Node.fail(e);
        }
        throw e;
      }
    }

    private long totalSteps;
    private int stepsPerEpoch;

    private DataParallel.Updates updates() {
      return switch (updates.toLowerCase(Locale.ROOT)) {
        case "workers" -> DataParallel.Updates.ON_WORKERS;
        case "servers" -> DataParallel.Updates.ON_SERVERS;
        default ->
            throw new IllegalArgumentException(
                "--updates " + updates + ": choose " + "workers or servers");
      };
    }

    private Optimizer optimizer() {
      String name = optimizer.toLowerCase(Locale.ROOT);
      float lr =
          learningRate != null
              ? learningRate
              : switch (name) {
                case "sgd" -> 0.1f;
                case "momentum" -> 0.05f;
                default -> 0.001f;
              };
      LearningRate rate =
          switch (schedule.toLowerCase(Locale.ROOT)) {
            case "constant" -> LearningRate.constant(lr);
            case "cosine" ->
                LearningRate.cosine(lr, 0f, (int) Math.min(Integer.MAX_VALUE, totalSteps));
            case "decay" -> LearningRate.step(lr, lrDecay, stepsPerEpoch);
            default ->
                throw new IllegalArgumentException(
                    "unknown schedule '" + schedule + "'; choose constant, cosine or decay");
          };
      return switch (name) {
        case "sgd" -> Sgd.builder().schedule(rate).weightDecay(weightDecay).build();
        case "momentum" ->
            Sgd.builder()
                .schedule(rate)
                .momentum(0.9f)
                .nesterov(true)
                .weightDecay(weightDecay)
                .build();
        case "adam" -> Adam.builder().schedule(rate).weightDecay(weightDecay).build();
        case "adamw" -> AdamW.builder().schedule(rate).weightDecay(weightDecay).build();
        default ->
            throw new IllegalArgumentException(
                "unknown optimizer '" + optimizer + "'; choose sgd, momentum, adam or adamw");
      };
    }
  }

  /** {@code eval}: loss and accuracy of a checkpoint on the test set. */
  @Command(
      name = "eval",
      mixinStandardHelpOptions = true,
      description = "Evaluate a checkpoint on the Fashion-MNIST test set.")
  static final class Eval implements Callable<Integer> {
    @Mixin Common common;

    @Option(
        names = "--checkpoint",
        paramLabel = "PREFIX",
        required = true,
        description = "Checkpoint prefix, e.g. out/mlp (reads PREFIX-0000.params).")
    Path checkpoint;

    @Override
    public Integer call() throws Exception {
      FashionMnist data = common.load();
      try (SampleModel model = loadCheckpoint(common.model, checkpoint)) {
        Evaluation e = model.model().classifier().evaluate(data.test());
        System.out.printf(
            Locale.ROOT,
            "%s on %d test images: loss %.4f, accuracy %.4f%n",
            checkpoint,
            e.examples(),
            e.loss(),
            e.accuracy());
      }
      return 0;
    }
  }

  /** {@code predict}: class predictions for the first test images. */
  @Command(
      name = "predict",
      mixinStandardHelpOptions = true,
      description = "Predict the class of the first --count test images.")
  static final class Predict implements Callable<Integer> {
    @Mixin Common common;

    @Option(
        names = "--checkpoint",
        paramLabel = "PREFIX",
        required = true,
        description = "Checkpoint prefix, e.g. out/mlp.")
    Path checkpoint;

    @Option(
        names = "--count",
        defaultValue = "10",
        description = "Images to classify " + "(default: ${DEFAULT-VALUE}).")
    int count;

    @Override
    public Integer call() throws Exception {
      if (count < 1) {
        throw new IllegalArgumentException("--count must be at least 1, got " + count);
      }
      Dataset all = common.load().test();
      if (count > all.size()) {
        throw new IllegalArgumentException(
            "--count must be at most "
                + all.size()
                + " (the "
                + "test set has "
                + all.size()
                + " images), got "
                + count);
      }
      Dataset test = all.first(count);
      try (SampleModel model = loadCheckpoint(common.model, checkpoint)) {
        Classifier c = model.model().classifier();
        float[] probs = c.predict(test.features(), test.size());
        int[] predicted = c.predict(test);
        for (int i = 0; i < test.size(); i++) {
          System.out.printf(
              Locale.ROOT,
              "%4d  predicted %-12s (p=%.3f)  actual %-12s %s%n",
              i,
              FashionMnist.className(predicted[i]),
              probs[i * c.classes() + predicted[i]],
              FashionMnist.className(test.label(i)),
              predicted[i] == test.label(i) ? "" : "✗");
        }
      }
      return 0;
    }
  }

  /** {@code export}: re-writes a checkpoint (validated) or an untrained model for MXNet/DJL. */
  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description =
          "Write a model as an MXNet checkpoint (PREFIX-symbol.json, "
              + "PREFIX-0000.params) that MXNet and DJL load: a validated copy of --checkpoint, or a "
              + "freshly initialised model.")
  static final class Export implements Callable<Integer> {
    @Option(
        names = "--model",
        paramLabel = "NAME",
        defaultValue = "mlp",
        description = "Model: mlp, lenet or lstm (default: ${DEFAULT-VALUE}).")
    SampleModel.Kind model;

    @Option(names = "--checkpoint", paramLabel = "PREFIX", description = "Checkpoint to export.")
    Path checkpoint;

    @Option(
        names = "--seed",
        defaultValue = "0",
        description = "Seed when no checkpoint is " + "given (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
        names = "--to",
        paramLabel = "PREFIX",
        required = true,
        description = "Prefix to " + "write.")
    Path to;

    @Override
    public Integer call() throws Exception {
      Path parent = to.toAbsolutePath().getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        throw new IllegalArgumentException(
            "--to "
                + to
                + ": directory "
                + parent
                + " does not "
                + "exist; create it first (export writes "
                + to.getFileName()
                + "-symbol.json and "
                + to.getFileName()
                + "-0000.params into it)");
      }
      try (SampleModel m =
          checkpoint == null ? model.create(seed) : loadCheckpoint(model, checkpoint)) {
        m.model().save(to);
      }
      System.out.println("wrote " + to + "-symbol.json and " + to + "-0000.params");
      return 0;
    }
  }

  /** {@code summary}: the compile-time layer table. */
  @Command(
      name = "summary",
      mixinStandardHelpOptions = true,
      description =
          "Print a model's layers, output shapes and parameter counts, as computed "
              + "at compile time.")
  static final class Summary implements Callable<Integer> {
    @Option(
        names = "--model",
        paramLabel = "NAME",
        defaultValue = "mlp",
        description = "Model: mlp, lenet or lstm (default: ${DEFAULT-VALUE}).")
    SampleModel.Kind model;

    @Override
    public Integer call() throws Exception {
      System.out.print(model.summary());
      return 0;
    }
  }
}
