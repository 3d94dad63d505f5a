package blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A transformer encoder of two blocks over sequences of 6 steps of width 8. */
@Model(classifier = true)
public interface TinyTransformer {
  @Input(shape = {BATCH, 6, 8}) Sym tokens();

  @PositionalEmbedding(steps = 6)
  Sym placed(Sym tokens);

  @Block(value = EncoderBlock.class, repeat = 2)
  Sym encoder(Sym placed);

  @LayerNorm
  Sym norm(Sym encoder);

  @Dense(units = 3)
  Sym logits(Sym norm);

  @Softmax
  Sym probs(Sym logits);
}
