package dev.kiln.ops;

import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A new shape for the same values ({@code @Reshape}): MXNet's {@code Reshape}, whose target may
 * hold MXNet's special values 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split
 * in two). MXNet 1.9.1 does not check that a reshape keeps the number of values; the graph checks
 * it before every bind. Generated code writes {@code ReshapeOp.of(BATCH, 1, 28, 28)}.
 *
 * @param shape the target, -1 ({@code BATCH}) for the one inferred dimension
 */
public record ReshapeOp(List<Integer> shape) implements LayerOp {
  static final OpReader<Reshape> READER =
      OpReader.of(
          Reshape.class, r -> new ReshapeOp(Arrays.stream(r.shape()).boxed().toList()), "shape");

  /** Copies the target. */
  public ReshapeOp {
    shape = List.copyOf(shape);
  }

  /** {@code {BATCH, 1, 28, 28}}: the target as written, -1 as BATCH. */
  String target() {
    return shape.stream()
        .map(d -> d == TShape.BATCH ? "BATCH" : d.toString())
        .collect(Collectors.joining(", ", "{", "}"));
  }

  @Override
  public String annotation() {
    return "Reshape";
  }

  @Override
  public String mxnetOp() {
    return "Reshape";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    String reason = reshapeSyntax(shape);
    if (reason != null) {
      throw site.fail(Message.BAD_RESHAPE, "shape", site.prefix(), target(), reason);
    }
  }

  /**
   * MXNet {@code InferReshapeShape} (read left to right, {@code reverse = false}), made exact:
   * every BATCH input dimension is its own unknown, and the reshape must keep the number of values
   * for every batch size, because MXNet 1.9.1 does not check it (a mismatched reshape overruns its
   * output at run time).
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    List<Size> sizes = new ArrayList<>();
    for (int i = 0; i < s.rank(); i++) {
      sizes.add(s.dim(i) < 0 ? new Size(1, List.of(i)) : Size.known(s.dim(i)));
    }
    List<Integer> spec = shape;
    List<Size> out = new ArrayList<>();
    int src = 0;
    int inferAt = -1;
    for (int i = 0; i < spec.size(); i++) {
      int v = spec.get(i);
      if (v > 0) {
        out.add(Size.known(v));
        src++;
      } else if (v == 0) {
        if (src >= sizes.size()) {
          throw badReshape(
              site, "COPY (0) at position " + i + " has no input dimension " + src + " to copy");
        }
        out.add(sizes.get(src++));
      } else if (v == -1) {
        inferAt = out.size();
        out.add(null);
        src++;
      } else if (v == -2) {
        while (src < sizes.size()) {
          out.add(sizes.get(src++));
        }
      } else if (v == -3) {
        if (src + 1 >= sizes.size()) {
          throw badReshape(
              site,
              "MERGE (-3) at position "
                  + i
                  + " needs input dimensions "
                  + src
                  + " and "
                  + (src + 1));
        }
        out.add(sizes.get(src).times(sizes.get(src + 1)));
        src += 2;
      } else {
        if (src >= sizes.size()) {
          throw badReshape(
              site, "SPLIT (-4) at position " + i + " has no input dimension " + src + " to split");
        }
        Size whole = sizes.get(src++);
        int a = spec.get(++i);
        int b = spec.get(++i);
        Size left;
        Size right;
        if (a == -1 || b == -1) {
          Size part = Size.known(a == -1 ? b : a);
          Size rest = whole.dividedBy(part);
          if (rest == null) {
            throw badReshape(
                site,
                "SPLIT (-4) cannot split dimension "
                    + (src - 1)
                    + " of size "
                    + whole
                    + " into parts of "
                    + part);
          }
          left = a == -1 ? rest : part;
          right = a == -1 ? part : rest;
        } else {
          left = Size.known(a);
          right = Size.known(b);
          if (!left.times(right).equals(whole)) {
            throw badReshape(
                site,
                "SPLIT (-4) cannot split dimension "
                    + (src - 1)
                    + " of size "
                    + whole
                    + " into "
                    + a
                    + " × "
                    + b);
          }
        }
        out.add(left);
        out.add(right);
      }
    }
    Size total = Size.product(sizes);
    if (inferAt >= 0) {
      List<Size> others = new ArrayList<>(out);
      others.remove(inferAt);
      Size rest = total.dividedBy(Size.product(others));
      if (rest == null) {
        throw badReshape(
            site,
            "the input has "
                + total
                + " values, which the other dimensions ("
                + Size.product(others)
                + " values) do not divide for every batch size");
      }
      out.set(inferAt, rest);
    } else if (!Size.product(out).equals(total)) {
      throw badReshape(
          site,
          "the input has "
              + total
              + " values but the target has "
              + Size.product(out)
              + "; a reshape must keep the number of values for every batch "
              + "size");
    }
    return Inferred.of(new TShape(out.stream().map(Size::toDim).toList()));
  }

  private RuleError badReshape(ShapeSite site, String reason) {
    return site.fail(
        Message.BAD_RESHAPE,
        "shape",
        site.where(),
        target(),
        reason + " (input " + site.x().describe() + ")");
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // a view
  }

  @Override
  public NodeCall call(CallSite site) {
    NodeCall.Arg[] target =
        shape.stream().map(d -> new NodeCall.Int(d, true)).toArray(NodeCall.Arg[]::new);
    return NodeCall.Builder.of("node", Args.chain(ReshapeOp.class, "of", target).build(), x());
  }

  /** The syntax of MXNet's reshape notation; sizes are checked against the input later. */
  private static String reshapeSyntax(List<Integer> shape) {
    if (shape.isEmpty()) {
      return "the shape is empty; give at least one dimension";
    }
    int inferred = 0;
    for (int i = 0; i < shape.size(); i++) {
      int v = shape.get(i);
      if (v == -1) {
        inferred++;
      } else if (v == -4) {
        if (i + 2 >= shape.size()) {
          return "SPLIT (-4) at position " + i + " needs the two sizes it splits into after it";
        }
        int a = shape.get(i + 1);
        int b = shape.get(i + 2);
        for (int d : new int[] {a, b}) {
          if (d <= 0 && d != -1) {
            return "the sizes after SPLIT (-4) at position "
                + i
                + " must be positive or -1 "
                + "(infer one of the two), got "
                + d;
          }
        }
        if (a == -1 && b == -1) {
          return "SPLIT (-4) at position " + i + " can infer only one of its two sizes";
        }
        i += 2;
      } else if (v < -4) {
        return v
            + " at position "
            + i
            + " is neither a size nor one of MXNet's special values "
            + "0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split one)";
      }
    }
    if (inferred > 1) {
      return "only one dimension can be inferred (BATCH or -1), got " + inferred;
    }
    return null;
  }

  /**
   * A dimension's size as a product of a known factor and the input's BATCH dimensions, each an
   * independent unknown: {@code 784}, {@code BATCH}, {@code 2 × BATCH}.
   */
  private record Size(long factor, List<Integer> batches) {
    Size {
      batches = batches.stream().sorted().toList();
    }

    /** A known size. */
    static Size known(long n) {
      return new Size(n, List.of());
    }

    /** The product of {@code sizes}. */
    static Size product(List<Size> sizes) {
      Size p = known(1);
      for (Size z : sizes) {
        p = p.times(z);
      }
      return p;
    }

    /** {@code this × o}. */
    Size times(Size o) {
      List<Integer> b = new ArrayList<>(batches);
      b.addAll(o.batches);
      return new Size(factor * o.factor, b);
    }

    /** {@code this / o} when it is a whole size for every batch size, else null. */
    Size dividedBy(Size o) {
      List<Integer> b = new ArrayList<>(batches);
      for (int i : o.batches) {
        if (!b.remove(Integer.valueOf(i))) {
          return null;
        }
      }
      if (o.factor == 0 || factor % o.factor != 0) {
        return null;
      }
      return new Size(factor / o.factor, b);
    }

    /** The size as a dimension: BATCH if it depends on one. */
    int toDim() {
      if (!batches.isEmpty()) {
        return TShape.BATCH;
      }
      return factor > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) factor;
    }

    @Override
    public String toString() {
      List<String> parts = new ArrayList<>();
      if (factor != 1 || batches.isEmpty()) {
        parts.add(Long.toString(factor));
      }
      batches.forEach(b -> parts.add("BATCH"));
      return String.join(" × ", parts);
    }
  }

  /** The target {@code shape}. */
  public static ReshapeOp of(int... shape) {
    return new ReshapeOp(java.util.Arrays.stream(shape).boxed().toList());
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    int[] target = shape.stream().mapToInt(Integer::intValue).toArray();
    Sym out = scope.op("Reshape", Attrs.of("shape", Attrs.tuple(target)), x);
    scope.checkReshape(x, out);
    return out;
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("Reshape", List.of("reshape"), ReshapeOp::reshape)
          .natives(Native.of("Reshape").bf16(Native.Bf16.FOLLOW));

  static Mapped reshape(FileAttrs a) {
    a.require("reverse", "False", "Kiln reads a reshape left to right");
    a.require("keep_highest", "False", "Kiln's reshape takes its shape alone");
    List<Integer> target = a.tuple("target_shape", List.of());
    if (!target.isEmpty()) {
      throw a.unsupported("target_shape", "Kiln imports the shape attribute");
    }
    return Mapped.unary(new ReshapeOp(a.tuple("shape", List.of())));
  }
}
