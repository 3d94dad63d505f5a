package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.Clip;
import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.MatMul;
import dev.kiln.annotations.Maximum;
import dev.kiln.annotations.Mean;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Multiply;
import dev.kiln.annotations.PRelu;
import dev.kiln.annotations.Slice;
import dev.kiln.annotations.Subtract;
import dev.kiln.annotations.Sym;
import dev.kiln.annotations.Transpose;

/** Activations, normalisation and tensor operations, for export; two inputs. */
@Model
public interface ExportTensors {
  /** Six rows of eight. */
  @Input(shape = {BATCH, 6, 8})
  Sym x();

  /** Six rows of eight more. */
  @Input(shape = {BATCH, 6, 8})
  Sym y();

  /** Per row; an output too. */
  @LayerNorm
  @dev.kiln.annotations.Output
  Sym norm(Sym x);

  /** Dense on the last axis. */
  @Dense(units = 8, activation = Act.GELU, flatten = false)
  Sym proj(Sym norm);

  /** ELU. */
  @Activation(Act.ELU)
  Sym elu(Sym proj);

  /** SELU. */
  @Activation(Act.SELU)
  Sym selu(Sym y);

  /** Leaky. */
  @Activation(Act.LEAKY_RELU)
  Sym leaky(Sym selu);

  /** Softplus. */
  @Activation(Act.SOFTRELU)
  Sym softplus(Sym leaky);

  /** SiLU. */
  @Activation(Act.SILU)
  Sym silu(Sym softplus);

  /** Mish. */
  @Activation(Act.MISH)
  Sym mish(Sym silu);

  /** Softsign. */
  @Activation(Act.SOFTSIGN)
  Sym softsign(Sym mish);

  /** Learned slopes. */
  @PRelu
  Sym prelu(Sym elu);

  /** Sum. */
  @Add
  Sym sum(Sym prelu, Sym softsign);

  /** Difference. */
  @Subtract
  Sym diff(Sym sum, Sym y);

  /** Product. */
  @Multiply
  Sym prod(Sym diff, Sym x);

  /** Larger. */
  @Maximum
  Sym larger(Sym prod, Sym y);

  /** Clipped. */
  @Clip(min = -1.5, max = 2)
  Sym clipped(Sym larger);

  /** Swapped: eight rows of six. */
  @Transpose(axes = {0, 2, 1})
  Sym swapped(Sym clipped);

  /** Rows 1 to 4. */
  @Slice(axis = 1, begin = 1, end = 5)
  Sym rows(Sym swapped);

  /** Joined on the last axis. */
  @Concat(axis = 2)
  Sym joined(Sym rows, Sym rows2);

  /** The same rows again. */
  @Slice(axis = 1, begin = 2, end = 6)
  Sym rows2(Sym swapped);

  /** A product of matrices. */
  @MatMul(transposeB = true)
  Sym gram(Sym joined, Sym joined2);

  /** The same again. */
  @Activation(Act.SIGMOID)
  Sym joined2(Sym joined);

  /** Mean over the rows. */
  @Mean(axes = 1)
  Sym mean(Sym gram);
}
