package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AttentionFiveInputs {
  @Input(shape = {BATCH, 10, 64}) Sym query();

  @Input(shape = {BATCH}) Sym lengths();

  @MultiHeadAttention(heads = 4)
  Sym read(
      Sym query,
      @From("query") Sym key,
      @From("query") Sym value,
      Sym lengths,
      @From("lengths") Sym more);
}
