package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AttentionCausalSteps {
  @Input(shape = {BATCH, 10, 64}) Sym query();

  @Input(shape = {BATCH, 12, 64}) Sym memory();

  @MultiHeadAttention(heads = 4, causal = true)
  Sym read(Sym query, @From("memory") Sym key, @From("memory") Sym value);
}
