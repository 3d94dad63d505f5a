package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** A LeNet exported as PyTorch exports one, imported whole: its input is {@code input.1}. */
@Model
public interface OnnxLeNet {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Imported(onnx = "lenet.onnx")
  Sym logits(@dev.kiln.annotations.From("image") Sym input_1);
}
