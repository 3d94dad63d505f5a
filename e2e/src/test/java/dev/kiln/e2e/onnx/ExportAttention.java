package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.MultiHeadAttention;
import dev.kiln.annotations.PositionalEmbedding;
import dev.kiln.annotations.Sym;

/** Causal self-attention with separate key and value sizes, for export. */
@Model
public interface ExportAttention {
  /** Six steps of eight features. */
  @Input(shape = {BATCH, 6, 8})
  Sym tokens();

  /** Where each step is. */
  @PositionalEmbedding(steps = 6)
  Sym placed(Sym tokens);

  /** Each step reads the ones before it. */
  @MultiHeadAttention(heads = 2, keyDim = 3, valueDim = 5, causal = true)
  Sym attended(Sym placed);
}
