package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * A symbol in MXNet 0.8's format, written by hand from MXNet's {@code legacy_json_util.cc}: {@code
 * param} and {@code attr} instead of {@code attrs}, {@code [node, index]} inputs, {@code
 * backward_source_id}, no {@code node_row_ptr}, {@code _Plus}, and a batch norm whose moving
 * averages are not in the file (MXNet before 0.9 did not save them) and whose {@code fix_gamma} is
 * MXNet's default, true.
 */
@Model(classifier = true)
public interface LegacyNet {
  @Input(shape = {BATCH, 3, 8, 8})
  Sym data();

  @Imported(symbol = "legacy-symbol.json")
  Sym net(Sym data);
}
