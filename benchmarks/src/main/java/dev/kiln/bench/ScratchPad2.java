package dev.kiln.bench;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.sample.models.FashionLeNetModel;
import java.util.ArrayList;
import java.util.List;

/** Scratch. */
public final class ScratchPad2 {
  private ScratchPad2() {}

  /** Scratch. */
  public static void main(String[] args) {
    int steps = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    int batch = Integer.parseInt(args[2]);
    List<KilnModel> models = new ArrayList<>();
    List<Classifier> cs = new ArrayList<>();
    for (String on : List.of("false", "true")) {
      System.setProperty("kiln.channelPadding", on);
      KilnModel m = FashionLeNetModel.create(Init.xavier(), 7);
      models.add(m);
      cs.add(m.classifier());
    }
    System.clearProperty("kiln.channelPadding");
    KilnModel nat = ScratchLeNet32_64Model.create(Init.xavier(), 7);
    models.add(nat);
    cs.add(nat.classifier());
    CustomBench.Batch b = CustomBench.Batch.random(batch);
    Sgd sgd = new Sgd(0.05f);
    for (int i = 0; i < 5; i++) {
      for (Classifier c : cs.subList(0, 2)) {
        c.trainBatch(b.pixels(), b.labels(), sgd);
      }
    }
    for (var s0 : (args.length > 3 ? List.<dev.kiln.runtime.exec.ParameterStore.Slot>of() : models.get(0).runtime().slots())) {
      if (true) break;
    }
    for (var s0 : models.get(0).runtime().slots()) {
      float[] a = s0.weight().toFloatArray();
      float[] c = models.get(1).runtime().slots().stream().filter(x -> x.name().equals(s0.name())).findFirst().get().weight().toFloatArray();
      double d = 0;
      for (int i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - c[i]));
      System.out.println(s0.name() + " " + s0.weight().shape() + " maxdiff " + d);
    }
    double[][] ps = CustomBench.interleaved(cs, b, steps, rounds);
    double[] ratio = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      ratio[r] = ps[1][r] / ps[0][r];
    }
    double[] r2 = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      r2[r] = ps[2][r] / ps[0][r];
    }
    System.out.println("native 32/64 " + CustomBench.Rounds.spread(ps[2], "%.1f") + " ratio " + CustomBench.Rounds.spread(r2, "%.2f"));
    System.out.println("unpadded " + CustomBench.Rounds.spread(ps[0], "%.1f") + " padded "
        + CustomBench.Rounds.spread(ps[1], "%.1f") + " ratio " + CustomBench.Rounds.spread(ratio, "%.2f"));
  }
}
