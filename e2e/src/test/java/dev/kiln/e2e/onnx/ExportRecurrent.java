package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Lstm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Rnn;
import dev.kiln.annotations.Sym;

/** The recurrent layers, for export: a two-layer bidirectional GRU, a ReLU RNN, an LSTM. */
@Model
public interface ExportRecurrent {
  /** Seven steps of five features. */
  @Input(shape = {BATCH, 7, 5})
  Sym steps();

  /** Both ways, two layers. */
  @Gru(units = 6, layers = 2, bidirectional = true)
  Sym gru(Sym steps);

  /** ReLU cells. */
  @Rnn(units = 4, activation = Act.RELU)
  Sym rnn(Sym gru);

  /** The last step only. */
  @Lstm(units = 3, layers = 2, bidirectional = true, returnSequences = false)
  Sym lstm(Sym rnn);
}
