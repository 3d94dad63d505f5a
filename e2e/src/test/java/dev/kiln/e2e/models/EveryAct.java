package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

/** Test model: every activation over the same input, each an output of its own. */
@Model
public interface EveryAct {
  @Input(shape = {BATCH, 12})
  Sym x();

  @Output
  @Activation(Act.GELU)
  Sym gelu(Sym x);

  @Output
  @Activation(Act.SILU)
  Sym silu(Sym x);

  @Output
  @Activation(Act.LEAKY_RELU)
  Sym leaky(Sym x);

  @Output
  @Activation(Act.ELU)
  Sym elu(Sym x);

  @Output
  @Activation(Act.SELU)
  Sym selu(Sym x);

  @Activation(Act.MISH)
  Sym mish(Sym x);
}
