package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Gated;

/** A custom layer whose parameter gateWeight becomes MXNet's gated_gate_weight. */
@Model
public interface GatedNet {
  @Input(shape = {BATCH, 5})
  Sym x();

  @Gated(out = 3)
  Sym gated(Sym x);
}
