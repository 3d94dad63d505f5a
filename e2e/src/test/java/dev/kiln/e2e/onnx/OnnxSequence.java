package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** A bidirectional LSTM sequence classifier exported as PyTorch exports one, imported whole. */
@Model
public interface OnnxSequence {
  @Input(shape = {BATCH, 6, 3})
  Sym x();

  @Imported(onnx = "lstm.onnx")
  Sym logits(Sym x);
}
