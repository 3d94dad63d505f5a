package dev.kiln.differential;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Draws random image models with free dimensions: one seed gives a {@code @Model} interface over
 * {@code [BATCH, C, H, W]} with {@code @FreeDim H} and {@code W}, made of convolutions and poolings
 * (both conventions, strides, padding, dilation), activations and batch norms, and merges of two
 * branches ({@code @Add} or {@code @Concat}) whose windows differ but whose sizes are the same
 * expression ({@code (H - 3) / 2 + 1} from a 3x3 convolution of stride 2 and from a 5x5 pooling of
 * stride 2 padded by 1), ending in a 1x1 convolution: fully convolutional, so the outputs' sizes
 * follow {@code H} and {@code W}. For any concrete size it also writes the same model with {@code
 * H} and {@code W} plain constants, and it computes in plain Java, layer by layer, which sizes the
 * model takes and what size its output has: the reference the suite checks the processor's
 * requirements and MXNet's shapes against. Half the models declare the least size their layers take
 * ({@code @FreeDim(min = 5)}), the others no bound; by seed, a third declare the sizes multiples of
 * 2 and a third multiples of 4 ({@code multipleOf}), which the compiler's algebra counts in those
 * units and the reference by skipping other sizes.
 */
final class FreeDimModelGenerator {
  /** The package of every generated model. */
  static final String PACKAGE = "gen.dims";

  /** Sizes the reference looks at when it finds the least size and draws sizes to run at. */
  static final int LARGEST = 48;

  private FreeDimModelGenerator() {}

  /**
   * A window along both spatial axes: a convolution ({@code filters > 0}) or a max or average
   * pooling, with MXNet's attributes.
   */
  record Window(int filters, boolean max, int k, int s, int p, int d, boolean full) {
    int span() {
      return d * (k - 1) + 1;
    }

    boolean conv() {
      return filters > 0;
    }

    /**
     * The output size over an input of {@code size}, or -1 where the layer refuses it: the window
     * must fit the padded input; under the full convention the last window must start inside the
     * input (Kiln's rule, {@code PoolOp}).
     */
    int out(int size) {
      int padded = size + 2 * p;
      if (size < 1 || padded < span()) {
        return -1;
      }
      if (!full) {
        return (padded - span()) / s + 1;
      }
      int o = 1 + (padded - k + s - 1) / s;
      return (o - 1) * s - p < size ? o : -1;
    }

    /** {@code c} of {@code out = (size + c) / s + 1}: windows with equal {@code c, s} agree. */
    int offset() {
      return full ? 2 * p - k + s - 1 : 2 * p - span();
    }

    String annotation() {
      if (conv()) {
        return "@Conv2D(filters = "
            + filters
            + ", kernel = "
            + k
            + (s == 1 ? "" : ", stride = " + s)
            + (p == 0 ? "" : ", pad = " + p)
            + (d == 1 ? "" : ", dilation = " + d)
            + ")";
      }
      return (max ? "@MaxPool" : "@AvgPool")
          + "(kernel = "
          + k
          + ", stride = "
          + s
          + (p == 0 ? "" : ", pad = " + p)
          + (full ? ", convention = PoolConvention.FULL" : "")
          + ")";
    }
  }

  /** One node: how it is declared, what it reads, its channels and its windows from the input. */
  private record Node(
      String name, String annotation, List<String> inputs, int channels, List<Window> path) {}

  /** A drawn model. */
  record Drawn(
      long seed,
      String name,
      List<NodeText> nodes,
      int inputChannels,
      int least,
      int declared,
      int multiple,
      List<Window> out,
      List<List<Window>> paths) {
    /** Copies the lists. */
    Drawn {
      nodes = List.copyOf(nodes);
      out = List.copyOf(out);
      paths = paths.stream().map(List::copyOf).toList();
    }

    /** Whether every layer takes an input of {@code size} along both axes. */
    boolean takes(int size) {
      return size >= least
          && size % multiple == 0
          && paths.stream().allMatch(p -> along(p, size) > 0);
    }

    /** The output size for an input of {@code size}, or -1 where the model refuses it. */
    int outSize(int size) {
      return along(out, size);
    }

    /** The sizes from 1 to {@link #LARGEST} that every layer takes. */
    List<Integer> valid() {
      List<Integer> v = new ArrayList<>();
      for (int h = 1; h <= LARGEST; h++) {
        if (takes(h)) {
          v.add(h);
        }
      }
      return v;
    }

    /** The free model's case. */
    ModelCase free() {
      return modelCase(name, source(name, true, 0, 0));
    }

    /** The same model with {@code H} and {@code W} constants of {@code h} and {@code w}. */
    ModelCase fixed(int h, int w) {
      String n = name + "At" + h + "x" + w;
      return modelCase(n, source(n, false, h, w));
    }

    private ModelCase modelCase(String n, String text) {
      return new ModelCase(
          n,
          PACKAGE + "." + n,
          seed,
          false,
          "xavier",
          Map.of(PACKAGE + "." + n, text),
          List.of("free-dims"));
    }

    private String source(String n, boolean free, int h, int w) {
      StringBuilder s = new StringBuilder();
      s.append("package ").append(PACKAGE).append(";\n\n");
      s.append("import static dev.kiln.annotations.Dim.BATCH;\n\n");
      for (String a :
          List.of(
              "Act",
              "Activation",
              "Add",
              "AvgPool",
              "BatchNorm",
              "Concat",
              "Conv2D",
              "FreeDim",
              "Input",
              "MaxPool",
              "Model",
              "PoolConvention",
              "Sym")) {
        if (free || !a.equals("FreeDim")) {
          s.append("import dev.kiln.annotations.").append(a).append(";\n");
        }
      }
      s.append("\n/** Drawn from seed ").append(seed).append(". */\n@Model\n");
      s.append("public interface ").append(n).append(" {\n");
      if (free) {
        List<String> attrs = new ArrayList<>();
        if (declared != 1) {
          attrs.add("min = " + declared);
        }
        if (multiple != 1) {
          attrs.add("multipleOf = " + multiple);
        }
        String min = attrs.isEmpty() ? "@FreeDim" : "@FreeDim(" + String.join(", ", attrs) + ")";
        s.append("  ").append(min).append("\n  int H = -10;\n\n");
        s.append("  ").append(min).append("\n  int W = -11;\n\n");
      } else {
        s.append("  int H = ").append(h).append(";\n\n  int W = ").append(w).append(";\n\n");
      }
      s.append("  @Input(shape = {BATCH, ").append(inputChannels).append(", H, W})\n");
      s.append("  Sym x();\n");
      for (NodeText t : nodes) {
        s.append("\n  ").append(t.annotation()).append("\n  Sym ").append(t.name()).append('(');
        s.append(String.join(", ", t.inputs().stream().map(i -> "Sym " + i).toList()));
        s.append(");\n");
      }
      s.append("}\n");
      return s.toString();
    }
  }

  /** The size after the windows of {@code path} over {@code size}, or -1 where one refuses it. */
  static int along(List<Window> path, int size) {
    int x = size;
    for (Window w : path) {
      x = w.out(x);
      if (x < 0) {
        return -1;
      }
    }
    return x;
  }

  /** A node as the source declares it. */
  record NodeText(String name, String annotation, List<String> inputs) {}

  /** The model drawn from {@code seed}. */
  static Drawn generate(long seed) {
    Random r = new Random(seed * 0x9E3779B97F4A7C15L + 37);
    int c0 = 1 + r.nextInt(3);
    Map<String, Node> nodes = new LinkedHashMap<>();
    Node cur = new Node("x", "@Input", List.of(), c0, List.of());
    int stages = 3 + r.nextInt(3);
    int strided = 0;
    for (int i = 0; i < stages; i++) {
      String id = "s" + i;
      int kind = r.nextInt(10);
      if (kind < 3) {
        Window w = window(r, cur.channels(), strided < 2);
        strided += w.s() > 1 ? 1 : 0;
        cur = add(nodes, next(id, w, cur));
      } else if (kind < 5) {
        String a =
            r.nextBoolean()
                ? "@BatchNorm"
                : "@Activation(Act." + List.of("RELU", "TANH", "SIGMOID").get(r.nextInt(3)) + ")";
        cur = add(nodes, new Node(id, a, List.of(cur.name()), cur.channels(), cur.path()));
      } else {
        Window a = window(r, cur.channels(), strided < 2);
        strided += a.s() > 1 ? 1 : 0;
        Window b = partner(r, a, cur.channels());
        Node left = add(nodes, next(id + "a", a, cur));
        Node right = add(nodes, next(id + "b", b, cur));
        if (r.nextBoolean()) {
          right =
              add(
                  nodes,
                  new Node(
                      id + "r",
                      "@Activation(Act.RELU)",
                      List.of(right.name()),
                      right.channels(),
                      right.path()));
        }
        boolean sum = left.channels() == right.channels() && r.nextBoolean();
        cur =
            add(
                nodes,
                new Node(
                    id,
                    sum ? "@Add" : "@Concat(axis = 1)",
                    List.of(left.name(), right.name()),
                    sum ? left.channels() : left.channels() + right.channels(),
                    left.path()));
      }
    }
    Window last = new Window(2, false, 1, 1, 0, 1, false);
    Node out = add(nodes, next("out", last, cur));
    List<Node> all = new ArrayList<>(nodes.values());
    List<List<Window>> paths = all.stream().map(Node::path).toList();
    int least = 0;
    for (int h = 1; h <= LARGEST && least == 0; h++) {
      final int size = h;
      if (paths.stream().allMatch(p -> along(p, size) > 0)) {
        least = h;
      }
    }
    if (least == 0) {
      // Too many strides for the sizes looked at: draw again from a neighbouring seed's stream.
      return generate(seed + 1_000_003L);
    }
    List<NodeText> texts =
        all.stream().map(n -> new NodeText(n.name(), n.annotation(), n.inputs())).toList();
    // Half the models declare the least size the layers take, so that the processor proves every
    // requirement; the others declare none, so that the layers' requirements are kept and checked
    // when the model runs.
    int declared = r.nextBoolean() ? least : 1;
    // By seed, so that any three seeds in a row try each: sizes of any kind, even, multiples of 4
    // (unless too few multiples lie between the least size and the largest looked at).
    int multiple = new int[] {1, 2, 4}[(int) Math.floorMod(seed, 3L)];
    if ((LARGEST - least) / multiple < 3) {
      multiple = 1;
    }
    return new Drawn(seed, "Dims" + seed, texts, c0, least, declared, multiple, out.path(), paths);
  }

  private static Node add(Map<String, Node> nodes, Node n) {
    nodes.put(n.name(), n);
    return n;
  }

  private static Node next(String name, Window w, Node in) {
    List<Window> path = new ArrayList<>(in.path());
    path.add(w);
    return new Node(
        name, w.annotation(), List.of(in.name()), w.conv() ? w.filters() : in.channels(), path);
  }

  /** A random window; strides above 1 only when {@code stride}. */
  private static Window window(Random r, int channels, boolean stride) {
    int s = stride && r.nextInt(3) == 0 ? 2 : 1;
    if (r.nextBoolean()) {
      int k = 1 + r.nextInt(4);
      int d = k > 1 && r.nextInt(4) == 0 ? 2 : 1;
      return new Window(
          r.nextBoolean() ? channels : 1 + r.nextInt(4), false, k, s, r.nextInt(2), d, false);
    }
    int k = 2 + r.nextInt(2);
    return new Window(0, r.nextBoolean(), k, s, r.nextInt(k), 1, r.nextInt(3) == 0);
  }

  /**
   * Another window whose output size is the same expression as {@code a}'s (same stride, same
   * offset), drawn at random; {@code a} with another filter count or pooling type when none is
   * found.
   */
  private static Window partner(Random r, Window a, int channels) {
    for (int attempt = 0; attempt < 200; attempt++) {
      Window b = window(r, channels, true);
      b = new Window(b.filters(), b.max(), b.k(), a.s(), b.p(), b.d(), b.full());
      if (b.offset() == a.offset() && !b.equals(a) && b.p() < Math.max(b.k(), 1) + 1) {
        if (!b.conv() && b.p() >= b.k()) {
          continue;
        }
        return b;
      }
    }
    return a.conv()
        ? new Window(a.filters() % 4 + 1, false, a.k(), a.s(), a.p(), a.d(), a.full())
        : new Window(0, !a.max(), a.k(), a.s(), a.p(), a.d(), a.full());
  }
}
