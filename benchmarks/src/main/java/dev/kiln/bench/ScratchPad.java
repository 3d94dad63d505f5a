package dev.kiln.bench;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionLeNetModel;
import java.util.ArrayList;
import java.util.List;

/** Scratch. */
public final class ScratchPad {
  private ScratchPad() {}

  /** Scratch. */
  public static void main(String[] args) {
    int steps = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    int batch = Integer.parseInt(args[2]);
    List<String> names = List.of("20/50", "32/64", "16/48", "32/50", "20/64");
    List<KilnModel> models = new ArrayList<>();
    models.add(FashionLeNetModel.create(Init.xavier(), 7));
    models.add(ScratchLeNet32_64Model.create(Init.xavier(), 7));
    models.add(ScratchLeNet16_48Model.create(Init.xavier(), 7));
    models.add(ScratchLeNet32_50Model.create(Init.xavier(), 7));
    models.add(ScratchLeNet20_64Model.create(Init.xavier(), 7));
    List<Classifier> cs = models.stream().map(KilnModel::classifier).toList();
    double[][] ps = CustomBench.interleaved(cs, CustomBench.Batch.random(batch), steps, rounds);
    for (int i = 0; i < names.size(); i++) {
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = ps[i][r] / ps[0][r];
      }
      System.out.println(names.get(i) + " " + CustomBench.Rounds.spread(ps[i], "%.1f")
          + "  vs 20/50 " + CustomBench.Rounds.spread(ratio, "%.2f"));
    }
  }
}
