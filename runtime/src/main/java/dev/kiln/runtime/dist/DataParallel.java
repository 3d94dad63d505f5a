package dev.kiln.runtime.dist;

import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.CallGuard;
import dev.kiln.runtime.exec.ExecutorCache;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.mxnet.OmpThreads;
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.optim.LearningRate;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitLoop;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.Score;
import dev.kiln.runtime.train.Supervised;
import dev.kiln.runtime.train.Trainer;
import dev.kiln.runtime.train.TrainingListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trains one classifier data-parallel on MXNet's key-value store: replicas of the model, each on a
 * batch's share, whose gradients the store sums (an all-reduce) before every replica applies the
 * same update, so every replica's parameters stay identical after every step.
 *
 * <ul>
 *   <li>{@link #local(KilnModel, int)}: {@code n} replicas on the CPU contexts {@code cpu(0)} ..
 *       {@code cpu(n-1)} of this process, through a {@code local} store. Each context has its own
 *       MXNet engine worker, so the replicas compute at the same time; run with {@code
 *       OMP_NUM_THREADS=1} (one core per context) so they do not oversubscribe the cores.
 *   <li>{@link #distributed(KilnModel)}: one replica per worker process of a {@code dist_sync} job
 *       (started by {@code kiln launch}, or by anything that sets ps-lite's {@code DMLC_*}
 *       environment); every worker must run the same number of steps ({@link DataLoader#shard}).
 * </ul>
 *
 * <p>The model itself is replica 0 and ends up holding the trained parameters. All the parameters
 * live in one fused array, so each step makes one push-and-pull of one key. The gradients are those
 * of the summed loss, scaled by {@code 1 / (examples in the step, across every replica and worker)}
 * through the optimizer's {@code rescaleGrad}, so a step is the same as one step on the whole batch
 * (within float rounding). Auxiliary states (batch-norm moving averages), which each replica
 * updates from its own share, are averaged at the end of every epoch. Not thread-safe.
 */
public final class DataParallel implements AutoCloseable {
  /** Where a distributed job applies the optimizer's update. */
  public enum Updates {
    /**
     * Every worker applies the update itself to the summed gradients it pulls (the store as an
     * all-reduce), in the fused optimizer's one call.
     */
    ON_WORKERS,
    /**
     * The servers apply it, each to its share of the parameters (MXNet's {@code set_optimizer}),
     * and the workers pull the updated parameters. Needs an optimizer without {@code
     * clipGlobalNorm} (a server sees only its slice).
     */
    ON_SERVERS,
    /**
     * A {@code dist_async} job: the servers apply each worker's gradient as it arrives, scaled by
     * that worker's own examples, and the worker pulls the parameters as they then stand; no worker
     * waits for another. Workers hold different parameters between epochs (each pulled at its own
     * moment) and every worker keeps its own batch-norm averages (a sum over workers needs them to
     * meet). Needs what {@link #ON_SERVERS} needs.
     */
    ASYNC;

    /** Whether the servers apply the optimizer. */
    public boolean onServers() {
      return this != ON_WORKERS;
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(DataParallel.class);

  private final KilnModel model;
  private final KvStore store;
  private final List<Replica> replicas = new ArrayList<>();
  private final int rank;
  private final int workers;
  private final List<Integer> auxKeys = new ArrayList<>();

  /** The store's key of each array the optimizer steps, in {@code fusedSlots()} order. */
  private final List<Integer> stepKeys = new ArrayList<>();

  private final Updates updates;
  private boolean serversReady;
  private boolean timed;
  private long steps;
  private long communicationNanos;
  private long stepNanos;

  /**
   * One copy of the model: its parameters and its training (a classifier's or a loss head's) over
   * them, or null for a model trained with forward, backward and {@link #update}.
   */
  private record Replica(ParameterStore params, Supervised trainer, ExecutorCache owned) {}

  private DataParallel(KilnModel model, KvStore store, int contexts, Updates updates) {
    this.model = model;
    this.store = store;
    this.updates = updates;
    try {
      this.rank = store.rank();
      this.workers = store.workers();
      ModelRuntime rt = model.runtime();
      boolean supervised = model.isClassifier() || model.hasTrainer();
      if (contexts > 1 && !supervised) {
        throw new IllegalArgumentException(
            model.name()
                + " is neither a classifier nor a model with a loss head: it can train "
                + "data-parallel one context per process (DataParallel.distributed, then forward, "
                + "backward and update(optimizer) on every worker), not on "
                + contexts
                + " contexts of one process");
      }
      Graph trainingGraph =
          model.isClassifier()
              ? model.classifier().graph()
              : model.hasTrainer() ? model.trainer().graph() : null;
      BiFunction<ParameterStore, Graph, Supervised> training =
          model.isClassifier()
              ? (params, g) -> new Classifier(model.name(), params, g).core()
              : (params, g) -> new Trainer(model.name(), model.trainer().kind(), params, g).core();
      ParameterStore own = rt.executors().store();
      replicas.add(
          new Replica(
              own,
              trainingGraph == null
                  ? null
                  : training.apply(own, trainingGraph.copy(DataParallel::summedLoss)),
              null));
      for (int d = 1; d < contexts; d++) {
        ExecutorCache cache = new ExecutorCache(model.name(), rt.graph().copy(json -> json), d);
        replicas.add(
            new Replica(
                cache.store(),
                training.apply(cache.store(), trainingGraph.copy(DataParallel::summedLoss)),
                cache));
      }
      broadcast(own);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Trains {@code model} (a classifier) on {@code contexts} CPU contexts of this process.
   *
   * @throws IllegalArgumentException if {@code contexts} is not positive
   */
  public static DataParallel local(KilnModel model, int contexts) {
    if (contexts < 1) {
      throw new IllegalArgumentException("contexts must be at least 1, got " + contexts);
    }
    OmpThreads.Setting omp = OmpThreads.inUse();
    int cores = omp.cores();
    int threads = omp.threads() == 0 ? cores : omp.threads();
    if (contexts > 1 && (long) threads * contexts > cores) {
      LOG.warn(
          "{}: {} contexts with {} on {} cores oversubscribe them, which makes data-parallel "
              + "training slower; start the JVM with OMP_NUM_THREADS=1 and use at most {} "
              + "contexts",
          model.name(),
          contexts,
          omp,
          cores,
          cores);
    }
    return new DataParallel(model, KvStore.create("local"), contexts, Updates.ON_WORKERS);
  }

  /**
   * Trains {@code model} (a classifier) as one worker of the {@code dist_sync} job this process
   * belongs to (its {@code DMLC_*} environment, as {@code kiln launch} sets it). Every worker
   * starts from rank 0's parameters.
   */
  public static DataParallel distributed(KilnModel model) {
    return distributed(model, Updates.ON_WORKERS);
  }

  /**
   * As {@link #distributed(KilnModel)}, with the optimizer's update applied where {@code updates}
   * says.
   */
  public static DataParallel distributed(KilnModel model, Updates updates) {
    return distributed(model, updates, 0);
  }

  /**
   * As {@link #distributed(KilnModel, Updates)}, with every worker's gradient pushed in MXNet's
   * {@code 2bit} compression at {@code twoBitThreshold} (each value sent as {@code ±threshold} or
   * 0, the rest carried into the next push on the worker; 0 for none). The servers sum the
   * decompressed gradients and every worker pulls the sum at full size, so the workers still agree
   * after every step. Batch-norm averages stay each worker's own (they would be quantized too).
   *
   * @throws IllegalArgumentException if compression is asked for with updates other than {@link
   *     Updates#ON_WORKERS}, or {@code twoBitThreshold} is negative or not finite
   */
  public static DataParallel distributed(KilnModel model, Updates updates, float twoBitThreshold) {
    if (twoBitThreshold != 0 && updates != Updates.ON_WORKERS) {
      throw new IllegalArgumentException(
          model.name() + ": 2bit compression works with the update on the workers, not " + updates);
    }
    KvStore store = KvStore.create(updates == Updates.ASYNC ? "dist_async" : "dist_sync");
    if (twoBitThreshold != 0) {
      try {
        store.twoBitCompression(twoBitThreshold);
      } catch (RuntimeException e) {
        store.close();
        throw e;
      }
    }
    DataParallel dp = new DataParallel(model, store, 1, updates);
    Node.say(
        "NODE role=worker rank="
            + dp.rank
            + " pid="
            + ProcessHandle.current().pid()
            + " workers="
            + dp.workers
            + " updates="
            + updates
            + (twoBitThreshold != 0 ? " compression=2bit:" + twoBitThreshold : ""));
    Node.watchScheduler(dp.store);
    return dp;
  }

  /**
   * Measures the time of every step's push and pull from now on ({@link #communication()}): waits
   * for the gradients before the push and for the pulled arrays after it, which keeps MXNet's
   * engine from overlapping the two with other work. Off by default.
   */
  public void timeCommunication(boolean on) {
    this.timed = on;
  }

  /**
   * The steps taken so far and, when {@link #timeCommunication} is on, the seconds spent in their
   * push and pull (including waiting for the other workers and, with {@link Updates#ON_SERVERS},
   * the servers' update).
   */
  public Communication communication() {
    return new Communication(steps, stepNanos / 1e9, communicationNanos / 1e9);
  }

  /**
   * Steps, the seconds spent inside {@link #step} (training without validation or listeners;
   * MXNet's engine finishes a step's work during the next one) and the seconds their pushes and
   * pulls took.
   */
  public record Communication(long steps, double stepSeconds, double seconds) {
    /** Mean milliseconds of push and pull per step, or NaN before the first. */
    public double millisPerStep() {
      return steps == 0 ? Double.NaN : seconds * 1000 / steps;
    }

    /** Steps per second of training, or NaN before the first. */
    public double stepsPerSecond() {
      return steps == 0 ? Double.NaN : steps / stepSeconds;
    }
  }

  /** Where this trainer applies the update. */
  public Updates updates() {
    return updates;
  }

  /** This worker's rank (0 for local training). */
  public int rank() {
    return rank;
  }

  /** The job's workers (1 for local training). */
  public int workers() {
    return workers;
  }

  /** The replicas in this process. */
  public int contexts() {
    return replicas.size();
  }

  /**
   * The trainable parameters of replica {@code context} (0 is the model itself), copied out of its
   * fused array: every replica holds the same after every step.
   */
  public float[] replicaParameters(int context) {
    List<float[]> parts = new ArrayList<>();
    int n = 0;
    for (ParameterStore.Slot s : replicas.get(context).params().fusedSlots()) {
      parts.add(s.weight().toFloatArray());
      n += parts.get(parts.size() - 1).length;
    }
    float[] all = new float[n];
    int at = 0;
    for (float[] part : parts) {
      System.arraycopy(part, 0, all, at, part.length);
      at += part.length;
    }
    return all;
  }

  /**
   * Makes every replica start from {@code own}'s values: every parameter (frozen ones too) and
   * auxiliary state. In a job, only rank 0's values are kept (the store's rule for initialisation).
   */
  private void broadcast(ParameterStore own) {
    // Keys: the arrays the optimizer steps (the fused array, then any parameter of its own), then
    // the frozen parameters, then the auxiliary states; the same on every worker.
    int key = 0;
    List<ParameterStore.Slot> stepped = own.fusedSlots();
    for (int i = 0; i < stepped.size(); i++) {
      List<Tensor> copies = new ArrayList<>();
      for (Replica r : replicas) {
        copies.add(r.params().fusedSlots().get(i).weight());
      }
      store.init(key, copies.get(0));
      store.pull(key, copies);
      stepKeys.add(key);
      key++;
    }
    for (ParameterStore.Slot s : own.slots()) {
      if (s.fused() == null && !stepped.contains(s)) {
        List<Tensor> copies = new ArrayList<>();
        for (Replica r : replicas) {
          copies.add(r.params().get(s.name()).weight());
        }
        store.init(key, s.weight());
        store.pull(key, copies);
        key++;
      }
    }
    for (ParameterStore.AuxSlot a : own.auxSlots()) {
      auxKeys.add(key);
      List<Tensor> copies = new ArrayList<>();
      for (Replica r : replicas) {
        copies.add(r.params().aux(a.name()).value());
      }
      store.init(key, a.value());
      store.pull(key, copies);
      key++;
    }
    for (Replica r : replicas) {
      r.params().weightsChanged();
    }
  }

  /**
   * One training step on a batch: each replica takes its share (as equal as they come), computes
   * its gradient, the store sums them, and every replica applies {@code optimizer}'s update.
   * Returns how to score the batch (this process's examples).
   *
   * @param features the batch's inputs, row-major, {@code labels.length} examples
   * @param labels class indices
   * @param examples the examples of this step across every worker of the job (this batch's size
   *     times the workers, when every worker's batch is full)
   */
  public FitLoop.Step step(float[] features, int[] labels, FusedOptimizer optimizer, int examples) {
    float[] y = new float[labels.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = labels[i];
    }
    return step(features, y, labels.length, optimizer, examples);
  }

  /**
   * {@link #step(float[], int[], FusedOptimizer, int)} for any supervised model: {@code labels}
   * holds what its training graph's label takes (class indices as floats, or targets), {@code n}
   * examples' worth.
   */
  public FitLoop.Step step(
      float[] features, float[] labels, int n, FusedOptimizer optimizer, int examples) {
    long begun = System.nanoTime();
    try (CallGuard.Scope call = model.runtime().guard().enter("dataParallel.step")) {
      requireSupervised("step");
      int featureSize = features.length / Math.max(1, n);
      int labelSize = labels.length / Math.max(1, n);
      // Every replica's batch is copied in before any replica's passes are queued: a copy waits
      // behind the work queued on cpu(0), so copying after starting replica 0 would serialise
      // the contexts (measured: 2 contexts ran LeNet at 0.95x one context, not 1.6x).
      List<Supervised.Staged> staged = new ArrayList<>();
      for (int r = 0; r < replicas.size(); r++) {
        int from = (int) ((long) r * n / replicas.size());
        int to = (int) ((long) (r + 1) * n / replicas.size());
        staged.add(
            to > from
                ? replicas
                    .get(r)
                    .trainer()
                    .stage(
                        Arrays.copyOfRange(features, from * featureSize, to * featureSize),
                        Arrays.copyOfRange(labels, from * labelSize, to * labelSize),
                        to - from)
                : null);
      }
      List<FitLoop.Step> parts = new ArrayList<>();
      for (int r = 0; r < replicas.size(); r++) {
        Replica replica = replicas.get(r);
        if (staged.get(r) != null) {
          parts.add(replica.trainer().computeGradients(staged.get(r)));
        } else {
          replica.params().zeroGrads();
        }
      }
      exchangeAndUpdate(optimizer, examples);
      for (Replica r : replicas) {
        r.params().updateApplied();
        r.params().gradientsConsumed();
      }
      stepNanos += System.nanoTime() - begun;
      return () -> {
        double loss = 0;
        double metric = 0;
        int count = 0;
        for (FitLoop.Step p : parts) {
          Score res = p.score();
          loss += res.lossSum();
          metric += res.metricSum();
          count += res.count();
        }
        return new Score(loss, metric, count);
      };
    }
  }

  /**
   * Sums the gradients of every stepped array (one per replica) over the replicas and workers
   * through the store and applies {@code optimizer} with its rescale divided by {@code divisor}: on
   * every replica here, or on the servers, whose updated parameters replica 0 then pulls.
   */
  private void exchangeAndUpdate(FusedOptimizer optimizer, int divisor) {
    if (updates.onServers()) {
      // Each worker checks its own gradient: the servers cannot stop the job cleanly.
      replicas.get(0).params().checkBeforeUpdate(model.name());
      // Asynchronously, the servers apply each worker's push alone: its own share of the divisor.
      installOnServers(optimizer, updates == Updates.ASYNC ? divisor / workers : divisor);
    }
    List<List<Tensor>> grads = new ArrayList<>();
    for (int i = 0; i < stepKeys.size(); i++) {
      List<Tensor> g = new ArrayList<>();
      for (Replica r : replicas) {
        g.add(r.params().fusedSlots().get(i).grad());
      }
      grads.add(g);
    }
    long started = 0;
    if (timed) {
      grads.forEach(g -> g.forEach(Tensor::waitToRead));
      started = System.nanoTime();
    }
    List<Tensor> pulled = new ArrayList<>();
    for (int i = 0; i < stepKeys.size(); i++) {
      if (updates.onServers()) {
        Tensor weight = replicas.get(0).params().fusedSlots().get(i).weight();
        store.pushPull(stepKeys.get(i), grads.get(i), List.of(weight));
        pulled.add(weight);
      } else if (store.compressed()) {
        // MXNet refuses a compressed push-and-pull: push, then pull the full-size sum.
        store.push(stepKeys.get(i), grads.get(i));
        store.pull(stepKeys.get(i), grads.get(i));
        pulled.addAll(grads.get(i));
      } else {
        store.pushPull(stepKeys.get(i), grads.get(i));
        pulled.addAll(grads.get(i));
      }
    }
    if (timed) {
      pulled.forEach(Tensor::waitToRead);
      communicationNanos += System.nanoTime() - started;
    }
    steps++;
    if (!updates.onServers()) {
      replicas.get(0).params().checkBeforeUpdate(model.name());
      List<ParameterStore.Slot> slots = new ArrayList<>();
      for (Replica r : replicas) {
        slots.addAll(r.params().fusedSlots());
      }
      float base = optimizer.rescaleGrad();
      optimizer.rescaleGrad(base / divisor);
      try {
        optimizer.step(slots);
      } finally {
        optimizer.rescaleGrad(base);
      }
    }
  }

  /**
   * One step of any model, classifier or not, on every worker of the job: the gradients that this
   * process's {@code backward} passes accumulated since the last update are averaged over the
   * workers (each worker's own gradient counts once, as when every worker back-propagates the mean
   * loss of a batch of the same size) and {@code optimizer} applies them, here or on the servers as
   * {@link #updates()} says. Every worker must call it once per step; the gradients are then
   * consumed, as after {@link KilnModel#update(dev.kiln.runtime.optim .Optimizer)}.
   *
   * @throws IllegalStateException if no backward pass ran since the last update, or this trainer
   *     has several contexts (use {@link #fit} for classifiers there)
   */
  public void update(FusedOptimizer optimizer) {
    if (replicas.size() != 1) {
      throw new IllegalStateException(
          model.name()
              + ": update(optimizer) steps one context "
              + "per process; with "
              + replicas.size()
              + " contexts train with fit");
    }
    try (CallGuard.Scope call = model.runtime().guard().enter("dataParallel.update")) {
      ParameterStore params = replicas.get(0).params();
      if (params.gradients() != ParameterStore.Gradients.ACCUMULATED) {
        throw new IllegalStateException(
            model.name()
                + ".update: no gradient to apply: no "
                + "backward pass since the last update; each gradient is applied once");
      }
      exchangeAndUpdate(optimizer, workers);
      params.updateApplied();
      params.zeroGrads();
    }
  }

  /**
   * Before the first step on the servers: rank 0 sends them {@code optimizer} with the rescale of a
   * step of {@code examples}, and every worker waits at a barrier until they have it.
   */
  private void installOnServers(FusedOptimizer optimizer, int examples) {
    if (serversReady) {
      return;
    }
    if (optimizer.clipGlobalNorm() > 0) {
      throw new IllegalArgumentException(
          model.name()
              + ": an optimizer with clipGlobalNorm("
              + optimizer.clipGlobalNorm()
              + ") cannot run on the servers, which see a slice of "
              + "the parameters each; use Updates.ON_WORKERS");
    }
    if (rank == 0) {
      float base = optimizer.rescaleGrad();
      LearningRate schedule = optimizer.schedule();
      optimizer.rescaleGrad(base / examples);
      if (updates == Updates.ASYNC) {
        // The servers step once per push: the schedule's steps are every worker's steps.
        optimizer.schedule(schedule.stretched(workers));
      }
      try {
        store.sendCommandToServers(
            ServerUpdates.COMMAND, ServerUpdates.command(optimizer, stepKeys));
      } finally {
        optimizer.rescaleGrad(base);
        optimizer.schedule(schedule);
      }
    }
    store.barrier();
    serversReady = true;
  }

  /**
   * Averages every auxiliary state (batch-norm moving averages) over the replicas and workers,
   * which updated them each from its own share: a collective call every worker must make. In an
   * {@link Updates#ASYNC} job, or one whose pushes are compressed, it does nothing: every worker
   * keeps its own.
   */
  public void averageAuxiliaryStates() {
    if (updates == Updates.ASYNC || store.compressed()) {
      return;
    }
    List<ParameterStore.AuxSlot> own = replicas.get(0).params().auxSlots();
    float scale = 1f / (replicas.size() * workers);
    for (int i = 0; i < own.size(); i++) {
      List<Tensor> copies = new ArrayList<>();
      for (Replica r : replicas) {
        copies.add(r.params().aux(own.get(i).name()).value());
      }
      store.pushPull(auxKeys.get(i), copies);
      for (Tensor t : copies) {
        float[] v = t.toFloatArray();
        for (int j = 0; j < v.length; j++) {
          v[j] *= scale;
        }
        t.copyFrom(v);
      }
    }
  }

  /**
   * Trains for {@code epochs} passes over {@code train} (for a job, this worker's {@link
   * DataLoader#shard}, so that every worker runs the same number of full batches). Validation and
   * the listeners run on rank 0 only; the others train and keep the job in step.
   */
  public FitResult fit(
      DataLoader train,
      Dataset validation,
      int epochs,
      FusedOptimizer optimizer,
      TrainingListener... listeners) {
    requireSupervised("fit");
    // A check that the model's last trainStep left pending is made now (entering the model's
    // guard runs it), not in the first batch.
    model.runtime().guard().enter("dataParallel.fit").close();
    boolean lead = rank == 0;
    int batch = train.batchSize();
    boolean fixed = train.steps() > 0;
    if ((workers > 1 || updates.onServers()) && !fixed) {
      throw new IllegalArgumentException(
          model.name()
              + ": every worker of a job must run the "
              + "same number of steps, or the synchronous ones wait for ever; train on "
              + "loader.shard(rank(), workers())");
    }
    List<TrainingListener> all = new ArrayList<>(lead ? List.of(listeners) : List.of());
    if (Node.launched()) {
      all.add(new Beacon());
    }
    int[] epoch = {0};
    Supervised.Head head = replicas.get(0).trainer().head();
    return FitLoop.run(
        model.name(),
        head.metric(),
        train,
        lead ? validation : null,
        epochs,
        b ->
            step(
                b.features(),
                head.labels(b),
                b.size(),
                optimizer,
                fixed ? batch * workers : b.size() * workers),
        () -> {
          averageAuxiliaryStates();
          epoch[0]++;
          if (Node.launched()) {
            Node.say(
                "EPOCH rank="
                    + rank
                    + " epoch="
                    + epoch[0]
                    + " params="
                    + Integer.toHexString(java.util.Arrays.hashCode(replicaParameters(0))));
          }
        },
        data -> evaluate(data),
        () -> model.runtime().guard().closing(),
        all);
  }

  /** Tells a launcher that training goes on: a {@code STEP} line every second or so. */
  private final class Beacon implements TrainingListener {
    private long last;

    @Override
    public void onBatchEnd(
        dev.kiln.runtime.train.FitContext context, dev.kiln.runtime.train.BatchStats batch) {
      long now = System.nanoTime();
      if (now - last > 1_000_000_000L || batch.batch() == 1) {
        last = now;
        Node.say(
            "STEP rank="
                + rank
                + " epoch="
                + batch.epoch()
                + " batch="
                + batch.batch()
                + " of "
                + context.batchesPerEpoch());
      }
    }
  }

  private Evaluation evaluate(Dataset data) {
    return replicas.get(0).trainer().evaluate(data);
  }

  private void requireSupervised(String what) {
    if (replicas.get(0).trainer() == null) {
      throw new IllegalStateException(
          model.name()
              + " is neither a classifier nor a model with a loss head, so "
              + what
              + " cannot train it; run forward and backward on every worker and then "
              + "update(optimizer)");
    }
  }

  /**
   * A training graph whose head ({@code SoftmaxOutput}, or a loss head's {@code MakeLoss})
   * back-propagates the summed loss ({@code normalization} null) instead of the mean, so that the
   * gradients of replicas with shares of different sizes add up to the whole batch's.
   */
  private static String summedLoss(String json) {
    String mean = "\"normalization\": \"batch\"";
    if (!json.contains(mean)) {
      // Without it the replicas would back-propagate means and the 1/examples rescale would
      // shrink every step by the batch size: refuse rather than train silently wrong.
      throw new IllegalStateException(
          "the training graph has no loss with " + mean + " to turn into a summed loss");
    }
    return json.replace(mean, "\"normalization\": \"null\"");
  }

  /**
   * Frees the replicas on the other contexts and the store (for a job, after the final barrier:
   * every worker must close). The model itself stays open.
   */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (Replica r : replicas) {
      try {
        if (r.trainer() != null) {
          r.trainer().close();
        }
        if (r.owned() != null) {
          r.owned().close();
        }
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    replicas.clear();
    store.close();
    if (failure != null) {
      throw failure;
    }
  }
}
