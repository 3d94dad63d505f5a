package layers;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A GRU cell written by hand, in MXNet's form, unrolled over the input's steps. */
@Layer(input = {"batch", "in"}, state = {"batch", "hidden"}, output = {"batch", "hidden"},
    forward = GruCell.Step.class)
public @interface GruCell {
  int hidden();

  final class Step {
    private Step() {}

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
