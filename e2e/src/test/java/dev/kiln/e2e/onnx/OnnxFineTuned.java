package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.From;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * The ONNX LeNet cut after its second dense layer ({@code /Relu_3_output_0}, 84 features), under a
 * new head of Fashion-MNIST's ten classes, every layer trained.
 */
@Model(classifier = true)
public interface OnnxFineTuned {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Reshape(shape = {BATCH, 1, 28, 28})
  Sym image(Sym pixels);

  @Imported(onnx = "lenet.onnx", output = "/Relu_3_output_0")
  Sym features(@From("image") Sym input_1);

  @Dense(units = 10)
  Sym logits(Sym features);

  @Softmax
  Sym probs(Sym logits);
}
