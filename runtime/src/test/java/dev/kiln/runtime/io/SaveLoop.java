package dev.kiln.runtime.io;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A child process that saves a large checkpoint over and over until it is killed: arguments prefix,
 * hidden units, first generation, and the seconds after which it stops by itself. Every element of
 * parameter {@code p} of generation {@code g} is {@link #value(long, int)}; it prints {@code READY}
 * once the model is built and {@code SAVED g} after each save returns.
 */
final class SaveLoop {
  private SaveLoop() {}

  /** 1024 -> hidden -> 10: {@code 4 * 1034 * hidden + 40} bytes of parameters, and a bit. */
  static Graph graph(int hidden) {
    GraphBuilder b = new GraphBuilder("Big");
    Sym x = b.input(new NodeSource("x", "Big.x()", "@Input"), Shape.of(-1, 1024));
    Sym h = b.node(new NodeSource("hidden", "Big.hidden()", "@Dense"), DenseOp.units(hidden), x);
    Sym y = b.node(new NodeSource("logits", "Big.logits()", "@Dense"), DenseOp.units(10), h);
    return b.build(List.of(y));
  }

  /** The value of every element of parameter {@code p} in generation {@code g}. */
  static float value(long g, int p) {
    return g * 8 + p;
  }

  /** Runs the child. */
  public static void main(String[] args) {
    Path prefix = Path.of(args[0]);
    int hidden = Integer.parseInt(args[1]);
    long generation = Long.parseLong(args[2]);
    long seconds = Long.parseLong(args[3]);
    Thread watchdog =
        new Thread(
            () -> {
              try {
                Thread.sleep(seconds * 1000);
              } catch (InterruptedException e) {
                return;
              }
              Runtime.getRuntime().halt(3);
            });
    watchdog.setDaemon(true);
    watchdog.start();
    try (ModelRuntime m = new ModelRuntime("BigModel", graph(hidden), Init.xavier(), 0)) {
      List<ParameterStore.Slot> slots = m.slots();
      float[][] buffers = new float[slots.size()][];
      for (int p = 0; p < slots.size(); p++) {
        buffers[p] = new float[(int) slots.get(p).weight().size()];
      }
      System.out.println("READY");
      System.out.flush();
      for (long g = generation; ; g++) {
        for (int p = 0; p < slots.size(); p++) {
          Arrays.fill(buffers[p], value(g, p));
          slots.get(p).weight().copyFrom(buffers[p]);
        }
        m.save(prefix);
        System.out.println("SAVED " + g);
        System.out.flush();
      }
    }
  }
}
