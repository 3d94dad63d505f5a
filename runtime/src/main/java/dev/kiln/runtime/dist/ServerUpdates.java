package dev.kiln.runtime.dist;

import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.mxnet.KvStoreHandle;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.optim.OptimizerSpec;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The optimizer on a job's servers, as MXNet's {@code set_optimizer} installs it: a worker sends
 * the {@link #command} (the optimizer as {@link OptimizerSpec} text and the keys it updates), the
 * server's controller installs this updater, and from then on every round of a key's pushes is
 * applied as that optimizer's step to the server's copy (its slice, for a key spread over several
 * servers), which the workers pull. Keys the optimizer does not own (batch-norm averages) keep the
 * store's plain sum.
 *
 * <p>Each key has an optimizer of its own, stepping once per round, and arrays of its own the
 * prepared update runs on: MXNet hands the updater fresh handles every round, so the pushed sum is
 * copied in and the result copied back to the stored array.
 */
final class ServerUpdates implements KvStoreHandle.Updater {
  /** The controller command that installs the updater. */
  static final int COMMAND = 0;

  private static final String PREFIX = "kiln-updates keys=";

  private final String optimizer;
  private final Set<Integer> keys;
  private final Map<Integer, Entry> entries = new HashMap<>();

  private record Entry(FusedOptimizer optimizer, ParameterStore.Slot slot) {}

  private ServerUpdates(String optimizer, Set<Integer> keys) {
    this.optimizer = optimizer;
    this.keys = keys;
  }

  /** The command body for {@code optimizer} updating {@code keys}. */
  static String command(FusedOptimizer optimizer, List<Integer> keys) {
    return PREFIX
        + keys.stream().map(String::valueOf).collect(Collectors.joining(","))
        + " optimizer="
        + OptimizerSpec.write(optimizer);
  }

  /** The updater a {@link #command} body describes (checked now, before any round). */
  static ServerUpdates parse(String body) {
    int opt = body.indexOf(" optimizer=");
    if (!body.startsWith(PREFIX) || opt < 0) {
      throw new IllegalArgumentException("not a Kiln updater command: '" + body + "'");
    }
    Set<Integer> keys =
        Arrays.stream(body.substring(PREFIX.length(), opt).split(","))
            .map(Integer::valueOf)
            .collect(Collectors.toSet());
    String spec = body.substring(opt + " optimizer=".length());
    OptimizerSpec.read(spec).close();
    return new ServerUpdates(spec, keys);
  }

  @Override
  public void update(int key, NDArrayHandle recv, NDArrayHandle local) {
    try (Tensor pushed = Tensor.wrapOwned(recv);
        Tensor stored = Tensor.wrapOwned(local)) {
      if (!keys.contains(key)) {
        stored.copyFrom(pushed);
        return;
      }
      Entry e = entries.get(key);
      if (e == null) {
        Tensor weight = Tensor.zeros(stored.shape());
        Tensor grad = Tensor.zeros(stored.shape());
        weight.copyFrom(stored);
        e =
            new Entry(
                OptimizerSpec.read(optimizer),
                new ParameterStore.Slot(
                    new ParamSpec("key" + key, stored.shape(), "key" + key, ParamSpec.Kind.WEIGHT),
                    weight,
                    grad));
        entries.put(key, e);
      }
      e.slot().grad().copyFrom(pushed);
      e.optimizer().step(List.of(e.slot()));
      stored.copyFrom(e.slot().weight());
    } catch (Throwable t) {
      // An exception cannot cross back into MXNet's C++ server loop; the job cannot go on.
      Node.say("ERROR role=server updating key " + key + ": " + t);
      t.printStackTrace(System.out);
      Node.halt(Node.FAILED);
    }
  }

  /** Frees every optimizer and array (the server's store is closed after). */
  void close() {
    for (Entry e : entries.values()) {
      e.optimizer().close();
      e.slot().weight().close();
      e.slot().grad().close();
    }
    entries.clear();
  }
}
