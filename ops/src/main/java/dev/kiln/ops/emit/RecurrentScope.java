package dev.kiln.ops.emit;

import dev.kiln.annotations.Sym;
import dev.kiln.names.StateRole;
import dev.kiln.ops.RnnLayout;

/** The builder's bookkeeping for one fused recurrent node: its flat vector and its states. */
public interface RecurrentScope {
  /** The node's flat parameter vector {@code <node>_parameters}, laid out as {@code layout}. */
  Sym parameters(RnnLayout layout);

  /**
   * The node's state argument {@code <node>_state} or {@code <node>_state_cell}, shaped {@code
   * [layers·dirs, batch, units]} and bound to zeros unless carried.
   */
  Sym state(StateRole role, RnnLayout layout, int batch);

  /** Carries state {@code role} into the next call: its final value {@code last} is an output. */
  void carry(StateRole role, Sym last);
}
