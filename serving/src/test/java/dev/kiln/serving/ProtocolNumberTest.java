package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The server's reading of JSON number literals is bit for bit the JDK's. */
class ProtocolNumberTest {
  private static void same(String literal) {
    assertEquals(
        Double.doubleToRawLongBits(Double.parseDouble(literal)),
        Double.doubleToRawLongBits(Protocol.number(literal)),
        literal);
  }

  @Test
  void literalsReadAsDoubleParseDoubleReadsThem() {
    for (String s :
        new String[] {
          "0",
          "-0",
          "0.0",
          "-0.0",
          "1",
          "-1",
          "10.5",
          "0.00123",
          "1e5",
          "1E-7",
          "2.5e+3",
          "1e22",
          "1e23",
          "1e-22",
          "1e-23",
          "123456789012345",
          "1234567890123456",
          "9007199254740993",
          "123456789012345678901",
          "0.000000000000000000000001",
          "4.9e-324",
          "1.7976931348623157e308",
          "1e400",
          "1e-400",
          "0.1",
          "0.30000000000000004",
          "3.4028235E38",
          "1.4E-45",
          "100e-2",
          "0e10",
          "-0e-5",
          "007",
          "1.000000000000000000001"
        }) {
      same(s);
    }
    Random rng = new Random(7);
    for (int i = 0; i < 50_000; i++) {
      float f = Float.intBitsToFloat(rng.nextInt());
      if (Float.isFinite(f)) {
        same(Float.toString(f));
      }
      same(Float.toString(rng.nextFloat()));
      same(Double.toString(rng.nextDouble() * Math.pow(10, rng.nextInt(40) - 20)));
      same(String.format("%." + rng.nextInt(12) + "f", rng.nextGaussian() * 1000));
      same(rng.nextInt(1_000_000) + "e" + (rng.nextInt(60) - 30));
    }
  }
}
