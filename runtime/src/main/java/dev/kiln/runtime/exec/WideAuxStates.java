package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.AuxSpec;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One executor's arrays for the auxiliary states its graph reads longer than declared ({@link
 * Graph#widenedAuxStates()}, a batch norm after a convolution whose filters a training graph pads),
 * all views of one array, and the three operator calls that keep the store's declared arrays in
 * step with their leading entries: before a forward pass one {@code Concat} writes the declared
 * values and, after each, the added entries' initial value (moving means 0, variances 1); after a
 * backward pass one {@code _split_v2} writes the leading entries back into the declared arrays.
 *
 * <p>MXNet's batch norm updates its moving statistics in its backward pass, an operator that
 * MXNet's engine knows only as a reader of them. So the copy back is queued behind an in-place
 * multiplication of the wide array by 1: as a writer of it, the engine runs that only once every
 * reader queued before it, that backward pass included, has finished. One call per step for all
 * states, not one per state: an imperative call costs about 33 µs of CPU time here.
 */
final class WideAuxStates implements AutoCloseable {
  private static final String[] IN_KEYS = {"dim", "num_args"};
  private static final String[] SETTLE_KEYS = {"scalar"};
  private static final String[] SETTLE_VALS = {"1"};
  private static final String[] OUT_KEYS = {"indices", "axis"};

  private final List<Tensor> owned = new ArrayList<>();
  private final Map<String, Tensor> views = new LinkedHashMap<>();
  private final PreparedOp in;
  private final String[] inVals;
  private final PreparedOp settle;
  private final PreparedOp out;
  private final String[] outVals;

  private WideAuxStates(Graph graph, ParameterStore params) {
    try {
      List<AuxSpec> wide = new ArrayList<>();
      long total = 0;
      for (AuxSpec a : graph.auxStates()) {
        Shape s = graph.widenedAuxStates().get(a.name());
        if (s != null) {
          if (s.rank() != 1) {
            throw new IllegalStateException(a.name() + ": only a vector can be widened, got " + s);
          }
          wide.add(a);
          total += s.size();
        }
      }
      Tensor flat = own(Tensor.zeros(Shape.of((int) total), params.device()));
      List<NDArrayHandle> pieces = new ArrayList<>();
      List<NDArrayHandle> written = new ArrayList<>();
      StringBuilder indices = new StringBuilder("(0");
      long at = 0;
      for (AuxSpec a : wide) {
        Tensor declared = params.aux(a.name()).value();
        int n = declared.shape().dim(0);
        int to = graph.widenedAuxStates().get(a.name()).dim(0);
        views.put(a.name(), own(flat.view(at, Shape.of(to))));
        Tensor tail = own(Tensor.zeros(Shape.of(to - n), params.device()));
        if (a.kind().initialValue() != 0f) {
          tail.fill(a.kind().initialValue());
        }
        Tensor discarded = own(Tensor.zeros(Shape.of(to - n), params.device()));
        pieces.add(declared.handle());
        pieces.add(tail.handle());
        written.add(declared.handle());
        written.add(discarded.handle());
        indices.append(", ").append(at + n);
        at += to;
        if (at < total) {
          indices.append(", ").append(at);
        }
      }
      NDArrayHandle[] whole = {flat.handle()};
      in = new PreparedOp("Concat", pieces.toArray(NDArrayHandle[]::new), whole);
      inVals = new String[] {"0", Integer.toString(pieces.size())};
      settle = new PreparedOp("_mul_scalar", whole, whole);
      out = new PreparedOp("_split_v2", whole, written.toArray(NDArrayHandle[]::new));
      outVals = new String[] {indices.append(")").toString(), "0"};
      // Every executor starts from the declared values, whichever pass comes first.
      in.run(IN_KEYS, inVals);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The arrays for {@code graph}'s widened states over {@code params}, or null without any. */
  static WideAuxStates of(Graph graph, ParameterStore params) {
    return graph.widenedAuxStates().isEmpty() ? null : new WideAuxStates(graph, params);
  }

  private Tensor own(Tensor t) {
    owned.add(t);
    return t;
  }

  /** The array to bind for state {@code name}, or null where it is bound as declared. */
  Tensor array(String name) {
    return views.get(name);
  }

  /** Queues the copy of the declared values in (before a forward pass). */
  void copyIn() {
    in.run(IN_KEYS, inVals);
  }

  /** Queues the copy of the leading entries back into the declared arrays (after a backward). */
  void copyOut() {
    settle.run(SETTLE_KEYS, SETTLE_VALS);
    out.run(OUT_KEYS, outVals);
  }

  @Override
  public void close() {
    for (int i = owned.size() - 1; i >= 0; i--) {
      owned.get(i).close();
    }
    owned.clear();
  }
}
