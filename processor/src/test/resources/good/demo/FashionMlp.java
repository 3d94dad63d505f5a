package demo;

import dev.kiln.annotations.*;
import static dev.kiln.annotations.Dim.BATCH;

@Model
public interface FashionMlp {
  @Input(shape = {BATCH, 784})                Sym pixels();
  @Dense(units = 128, activation = Act.RELU)  Sym hidden(Sym pixels);
  @Dense(units = 10)                          Sym logits(Sym hidden);
  @Softmax                                    Sym probs(Sym logits);
}
