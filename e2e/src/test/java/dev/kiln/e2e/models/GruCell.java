package dev.kiln.e2e.models;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/**
 * A gated recurrent unit written by hand, in MXNet's form (gates r, z and n, the reset gate
 * scaling the state's part of the candidate), so that it computes what the fused {@code @Gru}
 * does. Kiln unrolls it over the input's steps; its output is every step's state.
 */
@Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
    forward = GruCell.Step.class)
public @interface GruCell {
  /** The state's size. */
  int hidden();

  /** One step, traced once per step when the graph is built. */
  final class Step {
    private Step() {}

    /**
     * {@code r = σ(x·Wxr + h·Whr + br)}, {@code z = σ(x·Wxz + h·Whz + bz)}, {@code n = tanh(x·Wxn
     * + bxn + r ∘ (h·Whn + bhn))}, and the new state {@code (1 − z) ∘ n + z ∘ h}, written as
     * {@code n + z ∘ (h − n)}.
     */
    public static Sym apply(Sym x, Sym h,
        @Param(shape = {"in", "hidden"}) Sym wxr,
        @Param(shape = {"in", "hidden"}) Sym wxz,
        @Param(shape = {"in", "hidden"}) Sym wxn,
        @Param(shape = {"hidden", "hidden"}) Sym whr,
        @Param(shape = {"hidden", "hidden"}) Sym whz,
        @Param(shape = {"hidden", "hidden"}) Sym whn,
        @Param(shape = {"hidden"}, zeros = true) Sym br,
        @Param(shape = {"hidden"}, zeros = true) Sym bz,
        @Param(shape = {"hidden"}, zeros = true) Sym bxn,
        @Param(shape = {"hidden"}, zeros = true) Sym bhn) {
      Sym r = x.dot(wxr).add(h.dot(whr)).add(br).activation(Act.SIGMOID);
      Sym z = x.dot(wxz).add(h.dot(whz)).add(bz).activation(Act.SIGMOID);
      Sym n = x.dot(wxn).add(bxn).add(r.mul(h.dot(whn).add(bhn))).activation(Act.TANH);
      return n.add(z.mul(h.sub(n)));
    }
  }
}
