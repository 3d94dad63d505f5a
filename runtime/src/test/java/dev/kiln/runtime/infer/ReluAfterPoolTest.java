package dev.kiln.runtime.infer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ReLUs {@link ReluAfterPool} moves after their max pooling, and how it rewires them. */
class ReluAfterPoolTest {
  /** data, conv (filters), bn, relu, pool (type), dense, softmax; the softmax is the head. */
  private static String net(int filters, String poolType) {
    return """
        {"nodes": [
          {"op": "null", "name": "data", "inputs": []},
          {"op": "null", "name": "conv_weight", "inputs": []},
          {"op": "Convolution", "name": "conv",
           "attrs": {"num_filter": "%d", "kernel": "(5,5)"}, "inputs": [[0, 0, 0], [1, 0, 0]]},
          {"op": "BatchNorm", "name": "bn", "inputs": [[2, 0, 0]]},
          {"op": "Activation", "name": "relu", "attrs": {"act_type": "relu"},
           "inputs": [[3, 0, 0]]},
          {"op": "Pooling", "name": "pool", "attrs": {"pool_type": "%s", "kernel": "(2,2)"},
           "inputs": [[4, 0, 0]]},
          {"op": "FullyConnected", "name": "dense", "inputs": [[5, 0, 0]]},
          {"op": "softmax", "name": "probs", "inputs": [[6, 0, 0]]}],
         "arg_nodes": [0, 1], "heads": [[7, 0, 0]]}
        """
        .formatted(filters, poolType);
  }

  private static int source(JsonObject node) {
    return node.getAsJsonArray("inputs").get(0).getAsJsonArray().get(0).getAsInt();
  }

  @Test
  void aReluAfterAGemmConvolutionMovesAfterItsMaxPoolAndItsReaderFollows() {
    String json = ReluAfterPool.apply(net(20, "max"));
    JsonArray nodes = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("nodes");
    JsonObject pool = nodes.get(4).getAsJsonObject();
    JsonObject relu = nodes.get(5).getAsJsonObject();
    assertEquals("pool", pool.get("name").getAsString());
    assertEquals(3, source(pool), "the pooling reads the batch norm");
    assertEquals("relu", relu.get("name").getAsString());
    assertEquals(4, source(relu), "the ReLU reads the pooling");
    assertEquals(5, source(nodes.get(6).getAsJsonObject()), "the dense layer reads the ReLU");
    assertEquals(List.of("relu"), ReluAfterPool.moved(net(50, "max")));
  }

  @Test
  void blockedConvolutionsAveragePoolsAndAReluThatIsAnOutputStayAsTheyAre() {
    String blocked = net(32, "max");
    assertSame(blocked, ReluAfterPool.apply(blocked), "32 filters: oneDNN fuses the ReLU well");
    String average = net(20, "avg");
    assertSame(average, ReluAfterPool.apply(average), "a ReLU does not commute with a mean");
    String output =
        net(20, "max").replace("\"heads\": [[7, 0, 0]]", "\"heads\": [[7, 0, 0], [4, 0, 0]]");
    assertEquals(List.of(), ReluAfterPool.moved(output), "the ReLU is an output too");
  }
}
