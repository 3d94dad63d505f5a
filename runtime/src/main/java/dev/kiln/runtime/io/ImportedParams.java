package dev.kiln.runtime.io;

import dev.kiln.runtime.exec.Tensor;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the parameters of an imported model ({@code @Imported}) from the {@code .params} file
 * published with its symbol: an MXNet NDArray list keyed {@code arg:<name>} and {@code aux:<name>}
 * as MXNet's Module API and {@code HybridBlock.export} save it, or by plain names as Gluon's {@code
 * ParameterDict.save} does (its {@code Block.save_params} without the block's prefix, {@code
 * conv0_weight} for {@code resnetv10_conv0_weight}, which is restored as Gluon's {@code
 * load_parameters} restores it). Every array the imported nodes need must be in the file with its
 * shape; an array of the file's nodes that the import cut away is skipped; anything else is refused
 * by name. Nothing changes unless all of that holds.
 */
public final class ImportedParams {
  private ImportedParams() {}

  /**
   * Reads {@code file} into {@code params} (learnable parameters by name) and {@code aux}
   * (auxiliary states by name).
   *
   * @param wanted the names of the arrays the file must hold: the imported nodes' parameters and
   *     auxiliary states
   * @param skipped the names of arrays the file may also hold, of its nodes the import cut away
   * @return the names of the arrays skipped, in the file's order
   * @throws CheckpointException naming the file and the array at fault
   * @throws IOException if the file cannot be read
   */
  public static List<String> read(
      Path file,
      Map<String, Tensor> params,
      Map<String, Tensor> aux,
      Collection<String> wanted,
      Collection<String> skipped)
      throws IOException {
    try (FileChannel channel = ParamsFile.open(file)) {
      List<ParamsFile.Entry> entries = ParamsFile.index(file, channel, true);
      Map<ParamsFile.Entry, Tensor> targets = new LinkedHashMap<>();
      List<String> skips = new ArrayList<>();
      Set<String> found = new LinkedHashSet<>();
      String restore = restoredPrefix(entries, wanted, skipped);
      for (ParamsFile.Entry e : entries) {
        String name = restore + name(e.key());
        boolean isAux = e.key().startsWith(ParamsFile.AUX_PREFIX);
        boolean isArg = e.key().startsWith(ParamsFile.ARG_PREFIX);
        if (!wanted.contains(name)) {
          if (skipped.contains(name)) {
            skips.add(name);
            continue;
          }
          throw new CheckpointException(
              file,
              "array "
                  + e.index()
                  + " '"
                  + e.key()
                  + "' is neither a parameter of the model's imported nodes nor of the nodes its "
                  + "imports cut away; the imported nodes have "
                  + list(wanted));
        }
        Tensor target =
            isAux ? aux.get(name) : isArg ? params.get(name) : either(params, aux, name);
        if (target == null) {
          throw new CheckpointException(
              file,
              "array "
                  + e.index()
                  + " '"
                  + e.key()
                  + "' is "
                  + (isAux ? "an auxiliary state" : "a parameter")
                  + " in the file, but "
                  + name
                  + " is "
                  + (isAux ? "a parameter" : "an auxiliary state")
                  + " of the model");
        }
        e.requireShape(file, target.shape());
        if (!found.add(name)) {
          throw new CheckpointException(
              file, "holds " + name + " twice (array " + e.index() + " '" + e.key() + "')");
        }
        targets.put(e, target);
      }
      List<String> missing = wanted.stream().filter(n -> !found.contains(n)).toList();
      if (!missing.isEmpty()) {
        throw new CheckpointException(
            file,
            "has no array for "
                + list(missing)
                + ", which the imported nodes need; it holds "
                + list(entries.stream().map(ParamsFile.Entry::key).toList()));
      }
      Map<Tensor, float[]> values = new LinkedHashMap<>();
      for (Map.Entry<ParamsFile.Entry, Tensor> t : targets.entrySet()) {
        values.put(t.getValue(), ParamsFile.readData(file, channel, t.getKey()));
      }
      values.forEach(Tensor::copyFrom);
      return skips;
    }
  }

  /** {@code conv0_weight} for {@code arg:conv0_weight}, {@code aux:...} or a plain name. */
  private static String name(String key) {
    if (key.startsWith(ParamsFile.ARG_PREFIX)) {
      return key.substring(ParamsFile.ARG_PREFIX.length());
    }
    if (key.startsWith(ParamsFile.AUX_PREFIX)) {
      return key.substring(ParamsFile.AUX_PREFIX.length());
    }
    return key;
  }

  /**
   * The block prefix to put back before each key, as Gluon's {@code load_parameters} puts back
   * {@code restore_prefix}: when no key names an array of the model as it is, every key is plain
   * and every one does with the prefix that all the wanted names share (up to an underscore), that
   * prefix; else none.
   */
  private static String restoredPrefix(
      List<ParamsFile.Entry> entries, Collection<String> wanted, Collection<String> skipped) {
    if (entries.isEmpty() || wanted.isEmpty()) {
      return "";
    }
    String prefix = null;
    for (String w : wanted) {
      prefix = prefix == null ? w : common(prefix, w);
    }
    prefix = prefix.substring(0, prefix.lastIndexOf('_') + 1);
    if (prefix.isEmpty()) {
      return "";
    }
    for (ParamsFile.Entry e : entries) {
      String key = e.key();
      boolean plain =
          !key.startsWith(ParamsFile.ARG_PREFIX) && !key.startsWith(ParamsFile.AUX_PREFIX);
      if (!plain
          || wanted.contains(key)
          || skipped.contains(key)
          || !(wanted.contains(prefix + key) || skipped.contains(prefix + key))) {
        return "";
      }
    }
    return prefix;
  }

  private static String common(String a, String b) {
    int i = 0;
    while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return a.substring(0, i);
  }

  private static Tensor either(Map<String, Tensor> params, Map<String, Tensor> aux, String name) {
    Tensor t = params.get(name);
    return t != null ? t : aux.get(name);
  }

  /** At most ten names, then how many more. */
  private static String list(Collection<String> names) {
    List<String> all = new ArrayList<>(names);
    String shown = String.join(", ", all.subList(0, Math.min(10, all.size())));
    return all.size() > 10 ? shown + " and " + (all.size() - 10) + " more" : shown;
  }
}
