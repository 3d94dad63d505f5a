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
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitLoop;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.TrainingListener;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 *       (see {@link Launcher}); every worker must run the same number of steps ({@link
 *       DataLoader#shard}).
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
  private static final int WEIGHTS = 0;

  private final KilnModel model;
  private final KvStore store;
  private final List<Replica> replicas = new ArrayList<>();
  private final int rank;
  private final int workers;
  private final List<Integer> auxKeys = new ArrayList<>();

  /** One copy of the model: its parameters and a classifier over them. */
  private record Replica(ParameterStore params, Classifier classifier, ExecutorCache owned) {}

  private DataParallel(KilnModel model, KvStore store, int contexts) {
    this.model = model;
    this.store = store;
    try {
      this.rank = store.rank();
      this.workers = store.workers();
      ModelRuntime rt = model.runtime();
      Graph classifierGraph = model.classifier().graph();
      ParameterStore own = rt.executors().store();
      replicas.add(
          new Replica(
              own,
              new Classifier(model.name(), own, classifierGraph.copy(DataParallel::summedLoss)),
              null));
      for (int d = 1; d < contexts; d++) {
        ExecutorCache cache = new ExecutorCache(model.name(), rt.graph().copy(json -> json), d);
        replicas.add(
            new Replica(
                cache.store(),
                new Classifier(
                    model.name(), cache.store(), classifierGraph.copy(DataParallel::summedLoss)),
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
    return new DataParallel(model, KvStore.create("local"), contexts);
  }

  /**
   * Trains {@code model} (a classifier) as one worker of the {@code dist_sync} job this process
   * belongs to (its {@code DMLC_*} environment, as the {@link Launcher} sets it). Every worker
   * starts from rank 0's parameters.
   */
  public static DataParallel distributed(KilnModel model) {
    return new DataParallel(model, KvStore.create("dist_sync"), 1);
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
   * Makes every replica start from {@code own}'s values: every parameter (frozen ones too) and
   * auxiliary state. In a job, only rank 0's values are kept (the store's rule for initialisation).
   */
  private void broadcast(ParameterStore own) {
    int key = WEIGHTS;
    List<Tensor> fused = new ArrayList<>();
    for (Replica r : replicas) {
      if (!r.params().fusedSlots().isEmpty()) {
        fused.add(r.params().fusedSlots().get(0).weight());
      }
    }
    if (!fused.isEmpty()) {
      store.init(key, fused.get(0));
      store.pull(key, fused);
    }
    for (ParameterStore.Slot s : own.slots()) {
      if (s.fused() == null) {
        key++;
        List<Tensor> copies = new ArrayList<>();
        for (Replica r : replicas) {
          copies.add(r.params().get(s.name()).weight());
        }
        store.init(key, s.weight());
        store.pull(key, copies);
      }
    }
    for (ParameterStore.AuxSlot a : own.auxSlots()) {
      key++;
      auxKeys.add(key);
      List<Tensor> copies = new ArrayList<>();
      for (Replica r : replicas) {
        copies.add(r.params().aux(a.name()).value());
      }
      store.init(key, a.value());
      store.pull(key, copies);
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
    try (CallGuard.Scope call = model.runtime().guard().enter("dataParallel.step")) {
      int n = labels.length;
      int featureSize = features.length / Math.max(1, n);
      List<FitLoop.Step> parts = new ArrayList<>();
      List<Tensor> grads = new ArrayList<>();
      for (int r = 0; r < replicas.size(); r++) {
        int from = (int) ((long) r * n / replicas.size());
        int to = (int) ((long) (r + 1) * n / replicas.size());
        Replica replica = replicas.get(r);
        if (to > from) {
          parts.add(
              replica
                  .classifier()
                  .computeGradients(
                      Arrays.copyOfRange(features, from * featureSize, to * featureSize),
                      Arrays.copyOfRange(labels, from, to)));
        } else {
          replica.params().zeroGrads();
        }
        grads.add(replica.params().fusedSlots().get(0).grad());
      }
      store.pushPull(WEIGHTS, grads);
      replicas.get(0).params().checkBeforeUpdate(model.name());
      List<ParameterStore.Slot> slots = new ArrayList<>();
      for (Replica r : replicas) {
        slots.addAll(r.params().fusedSlots());
      }
      float base = optimizer.rescaleGrad();
      optimizer.rescaleGrad(base / examples);
      try {
        optimizer.step(slots);
      } finally {
        optimizer.rescaleGrad(base);
      }
      for (Replica r : replicas) {
        r.params().updateApplied();
        r.params().gradientsConsumed();
      }
      return () -> {
        double loss = 0;
        int correct = 0;
        int count = 0;
        for (FitLoop.Step p : parts) {
          Classifier.Result res = p.score();
          loss += res.lossSum();
          correct += res.correct();
          count += res.count();
        }
        return new Classifier.Result(loss, correct, count);
      };
    }
  }

  /**
   * Averages every auxiliary state (batch-norm moving averages) over the replicas and workers,
   * which updated them each from its own share: a collective call every worker must make.
   */
  public void averageAuxiliaryStates() {
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
    boolean lead = rank == 0;
    int batch = train.batchSize();
    boolean fixed = train.steps() > 0;
    return FitLoop.run(
        model.name(),
        train,
        lead ? validation : null,
        epochs,
        b ->
            step(
                b.features(),
                b.labels(),
                optimizer,
                fixed ? batch * workers : b.labels().length * workers),
        this::averageAuxiliaryStates,
        data -> evaluate(data),
        () -> model.runtime().guard().closing(),
        lead ? List.of(listeners) : List.of());
  }

  private Evaluation evaluate(Dataset data) {
    return replicas.get(0).classifier().evaluate(data);
  }

  /**
   * A classifier graph whose {@code SoftmaxOutput} back-propagates the summed loss ({@code
   * normalization} null) instead of the mean, so that the gradients of replicas with shares of
   * different sizes add up to the whole batch's.
   */
  private static String summedLoss(String json) {
    return json.replace("\"normalization\": \"batch\"", "\"normalization\": \"null\"");
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
        r.classifier().close();
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
