package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Sym;

/** Attention scores of a sequence with itself, without transposing the keys. */
@Layer(
    input = {"batch", "steps", "width"},
    output = {"batch", "steps", "steps"},
    forward = SelfScores.Forward.class)
public @interface SelfScores {
  final class Forward {
    private Forward() {}

    public static Sym apply(Sym x) {
      Sym scores = x.batchDot(x, false);
      return scores.softmax(-1);
    }
  }
}
