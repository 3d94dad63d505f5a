package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** A multi-layer perceptron for 28x28 Fashion-MNIST images: 784 → 128 (ReLU) → 10 → softmax. */
@Model(classifier = true)
public interface FashionMlp {
  /** Pixels scaled to [0, 1], one row per image. */
  @Input(shape = {BATCH, 784})
  Sym pixels();

  /** The hidden layer. */
  @Dense(units = 128, activation = Act.RELU)
  Sym hidden(Sym pixels);

  /** Unnormalised class scores. */
  @Dense(units = 10)
  Sym logits(Sym hidden);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
