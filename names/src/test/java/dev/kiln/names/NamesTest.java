package dev.kiln.names;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The names MXNet's operators and Kiln's checkpoints spell, and MXNet's parameter count. */
class NamesTest {
  @Test
  void rolesNameVariablesAsMxnetsOperatorsAndGluonDo() {
    assertEquals("hidden_weight", ParamRole.WEIGHT.of("hidden"));
    assertEquals("bn_moving_var", AuxRole.MOVING_VAR.of("bn"));
    assertEquals("lstm_state_cell", StateRole.CELL.of("lstm"));
    assertEquals("probs_label", NodeNames.label("probs"));
  }

  @Test
  void theParameterCountIsMxnetsGetRnnParamSize() {
    // An LSTM of 128 units over 28 features: 4 · 128 · (28 + 128 + 2) = 80,896 (MXNet 1.9.1
    // reports this size for FashionLstm's lstm_parameters).
    assertEquals(80_896, RnnCell.LSTM.parameterCount(28, 128, 1, 1));
    // Two bidirectional GRU layers of 5 over 3 features: S = 3·5·2 = 30; (3+5+2)·30 +
    // (2·5+5+2)·30 = 300 + 510.
    assertEquals(810, RnnCell.GRU.parameterCount(3, 5, 2, 2));
    assertEquals(List.of(StateRole.HIDDEN, StateRole.CELL), RnnCell.LSTM.states());
    assertEquals(RnnCell.RNN_RELU, RnnCell.ofMode("rnn_relu"));
    assertThrows(IllegalArgumentException.class, () -> RnnCell.ofMode("rnn"));
  }
}
