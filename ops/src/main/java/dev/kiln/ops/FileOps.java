package dev.kiln.ops;

import dev.kiln.names.AuxRole;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.rule.RuleError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The operators of MXNet symbol files that Kiln imports ({@code @Imported}): each unit says which
 * it reads and how ({@code Unit.file}), and this table is made from {@link Ops#UNITS}, so that an
 * imported node is checked, costed and emitted exactly as the layer is. Names of older MXNet
 * versions ({@code _Plus}, {@code _plus}) map as their current ones. An attribute the unit cannot
 * honour is refused ({@link FileAttrs#done}), never dropped.
 */
public final class FileOps {
  private FileOps() {}

  /** What one input of a file operator is. */
  public enum Kind {
    /** A value computed by another node or fed to the model. */
    DATA,
    /** A learnable parameter, a variable of the file with a role ({@code weight}). */
    PARAM,
    /** An auxiliary state ({@code moving_mean}). */
    AUX,
    /** A loss head's label, which Kiln's own training feeds: dropped from the import. */
    LABEL,
    /**
     * A recurrent layer's initial state, a variable of the file (which MXNet's Module API feeds
     * zeros) or its {@code _zeros} node ({@code begin_state}): Kiln's own state argument, zeros at
     * every call, takes its place.
     */
    STATE
  }

  /**
   * One input of a file operator, in MXNet's argument order.
   *
   * @param kind what it is
   * @param role a parameter's or auxiliary state's role, the part after {@code <node>_}; null for
   *     data
   */
  public record Arg(Kind kind, String role) {
    static final Arg DATA = new Arg(Kind.DATA, null);
    static final Arg LABEL = new Arg(Kind.LABEL, "label");
    static final Arg STATE = new Arg(Kind.STATE, null);

    static Arg param(ParamRole role) {
      return new Arg(Kind.PARAM, role.role());
    }

    static Arg aux(AuxRole role) {
      return new Arg(Kind.AUX, role.role());
    }

    /** Data, weight and, unless {@code noBias}, bias. */
    static List<Arg> weighted(boolean noBias) {
      List<Arg> args = new ArrayList<>(List.of(DATA, param(ParamRole.WEIGHT)));
      if (!noBias) {
        args.add(param(ParamRole.BIAS));
      }
      return args;
    }
  }

  /**
   * What the importer makes of one file node.
   *
   * @param op the op unit, with the node's attributes
   * @param args the operator's inputs in MXNet's order
   * @param outputs for an operator of several outputs ({@code SliceChannel}), the op of each, which
   *     becomes a node of its own when the import reads it; empty for one output
   */
  public record Mapped(Op op, List<Arg> args, List<Op> outputs) {
    /** Copies the inputs and outputs. */
    public Mapped {
      args = List.copyOf(args);
      outputs = List.copyOf(outputs);
    }

    /** A node of one output. */
    public Mapped(Op op, List<Arg> args) {
      this(op, args, List.of());
    }

    /** A node of {@code op} over one data input. */
    static Mapped unary(Op op) {
      return new Mapped(op, List.of(Arg.DATA));
    }

    /** A node of {@code op} over {@code inputs} data inputs. */
    static Mapped data(Op op, int inputs) {
      return new Mapped(op, Collections.nCopies(inputs, Arg.DATA));
    }
  }

  private static final Map<String, Function<FileAttrs, Mapped>> OPS = new TreeMap<>();

  /** MXNet's older names of operators, mapped to their current ones. */
  private static final Map<String, String> ALIASES = new TreeMap<>();

  static {
    for (Unit unit : Ops.UNITS) {
      for (Unit.FileReader f : unit.files()) {
        if (OPS.put(f.name(), f.mapper()) != null) {
          throw new AssertionError("two units read " + f.name());
        }
        for (String older : f.older()) {
          if (ALIASES.put(older, f.name()) != null) {
            throw new AssertionError("two units read " + older);
          }
        }
      }
    }
  }

  /** The current names of the operators Kiln imports, in name order. */
  public static Set<String> current() {
    return Collections.unmodifiableSet(OPS.keySet());
  }

  /** The older names of operators Kiln imports, in name order. */
  public static Set<String> older() {
    return Collections.unmodifiableSet(ALIASES.keySet());
  }

  /** Whether Kiln imports operator {@code op}. */
  public static boolean known(String op) {
    return OPS.containsKey(ALIASES.getOrDefault(op, op));
  }

  /**
   * The op unit for a node of operator {@code op} with {@code attrs}, named {@code where} in
   * messages.
   *
   * @throws RuleError when the node has an attribute the unit cannot honour
   * @throws IllegalArgumentException when Kiln does not import {@code op} (see {@link #known})
   */
  public static Mapped map(String where, String op, Map<String, String> attrs) {
    String current = ALIASES.getOrDefault(op, op);
    Function<FileAttrs, Mapped> mapper = OPS.get(current);
    if (mapper == null) {
      throw new IllegalArgumentException("not imported: " + op);
    }
    FileAttrs a = new FileAttrs(where, op, attrs);
    Mapped m = mapper.apply(a);
    a.done();
    return m;
  }
}
