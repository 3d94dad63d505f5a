package bad.attention;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AttentionKeyValueWidths {
  @Input(shape = {BATCH, 10, 64}) Sym query();

  @Input(shape = {BATCH, 12, 32}) Sym key();

  @Input(shape = {BATCH, 12, 48}) Sym value();

  @MultiHeadAttention(heads = 4)
  Sym read(Sym query, Sym key, Sym value);
}
