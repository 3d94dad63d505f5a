package names;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dim;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * A model whose own members are named like what the generated graph imports: the graph
 * implements it, so they would shadow the static import of BATCH and imported types.
 */
@Model
public interface ShadowingMembers {
  /** The batch size the author trains with, not Dim.BATCH. */
  int BATCH = 32;

  /** A nested type named like the runtime's Shape. */
  interface Shape {}

  /** A nested type named like java.util.List. */
  interface List {}

  /** A nested type named like the runtime's Graph. */
  interface Graph {}

  @Input(shape = {Dim.BATCH, 784}) Sym pixels();
  @Dense(units = BATCH) Sym hidden(Sym pixels);
  @Dense(units = 10) Sym logits(Sym hidden);
  @Softmax Sym probs(Sym logits);
}
