package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A 0/1 mask per step where attention takes each example's number of valid steps. */
@Model
public interface AttentionMaskNotLengths {
  @Input(shape = {BATCH, 10, 64}) Sym tokens();

  @Input(shape = {BATCH, 10}) Sym mask();

  @MultiHeadAttention(heads = 4)
  Sym mixed(Sym tokens, Sym mask);
}
