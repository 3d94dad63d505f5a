package dev.kiln.processor.op;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.ops.rule.TShape;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A custom layer's forward body is traced only when the graph is built: its cost is unknown. */
class CustomOpCostTest {
  @Test
  void aCustomLayersCostIsUnknown() {
    CustomOp affine =
        new CustomOp(
            "Affine",
            null,
            "apply",
            List.of("b"),
            List.of("b"),
            List.of(),
            Map.of(),
            List.of(),
            List.of(),
            dev.kiln.processor.model.ForwardBody.unchecked("a test"));
    assertEquals(-1, affine.flops(List.of(TShape.of(-1)), TShape.of(-1)));
  }
}
