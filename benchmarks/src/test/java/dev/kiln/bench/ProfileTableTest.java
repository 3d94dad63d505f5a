package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProfileTableTest {
  @Test
  void wallCpuAndDriverTimesWithTheExtraOverTheFirstVariant() {
    Map<String, Map<Integer, List<Double>>> wall = new LinkedHashMap<>();
    wall.put("floor", Map.of(32, List.of(250.0, 200.0, 300.0), 256, List.of(1000.0)));
    wall.put("kiln", Map.of(32, List.of(500.0, 400.0, 1000.0)));
    Map<String, Map<Integer, List<Double>>> cpu = new LinkedHashMap<>();
    cpu.put("floor", Map.of(32, List.of(240.0, 260.0, 250.0), 256, List.of(990.0)));
    cpu.put("kiln", Map.of(32, List.of(300.0, 310.0, 290.0)));
    Map<String, Map<Integer, List<Double>>> driver = new LinkedHashMap<>();
    driver.put("floor", Map.of(32, List.of(100.0, 110.0, 90.0), 256, List.of(120.0)));
    driver.put("kiln", Map.of(32, List.of(150.0, 140.0, 160.0)));
    assertEquals(
        """
        | variant | @32 wall µs/step best / median | process CPU | driver thread CPU (+ over \
        first) | @256 wall µs/step best / median | process CPU | driver thread CPU (+ over \
        first) |
        |---|---:|---:|---:|---:|---:|---:|
        | floor | 200 / 250 | 250 | 100 (+0) | 1000 / 1000 | 990 | 120 (+0) |
        | kiln | 400 / 500 | 300 | 150 (+50) | – | – | – |
        """,
        ProfileTable.format(wall, cpu, driver));
  }
}
