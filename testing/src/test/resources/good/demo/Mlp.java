package demo;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

@Model
public interface Mlp {
  @Input(shape = {BATCH, 784})                Sym pixels();
  @Dense(units = 128, activation = Act.RELU)  Sym hidden(Sym pixels);
  @BatchNorm                                  Sym normed(Sym hidden);
  @Dense(units = 10)                          Sym logits(Sym normed);
  @Softmax                                    Sym probs(Sym logits);
}
