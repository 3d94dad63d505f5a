package dev.kiln.bench;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.From;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * The ONNX LeNet ({@code lenet.onnx}, the end-to-end tests' PyTorch-style export, copied here by
 * the build) imported whole under a softmax: what {@code bench import} times against the same
 * network written by hand ({@link OnnxLeNetHand}).
 */
@Model(classifier = true)
public interface OnnxLeNetImported {
  /** One single-channel 28x28 image per example. */
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  /** The file's graph: class scores. */
  @Imported(onnx = "lenet.onnx")
  Sym logits(@From("image") Sym input_1);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
