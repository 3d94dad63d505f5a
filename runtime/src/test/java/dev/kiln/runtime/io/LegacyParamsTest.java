package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.runtime.graph.Shape;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A {@code .params} file of MXNet before 1.0, written by the layout MXNet 1.9.1 reads: MXNet's own
 * {@code MXNDArrayLoad} and Kiln's reader find the same keys, shapes and values in it.
 */
class LegacyParamsTest {
  @TempDir Path dir;

  private static NamedArray random(String key, Random r, int... dims) {
    Shape shape = Shape.of(dims);
    float[] v = new float[(int) shape.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return new NamedArray(key, shape, v);
  }

  @ParameterizedTest
  @EnumSource(LegacyParams.Layout.class)
  void mxnetAndKilnReadTheSameArrays(LegacyParams.Layout layout) throws Exception {
    Random r = new Random(3);
    List<NamedArray> arrays =
        List.of(
            random("arg:conv_weight", r, 4, 3, 3, 3),
            random("arg:conv_bias", r, 4),
            random("aux:bn_moving_var", r, 4),
            random("arg:fc_weight", r, 2, 36));
    Path file = dir.resolve("old-0000.params");
    LegacyParams.write(file, arrays, layout);
    List<NamedArray> mxnet = MxnetFiles.load(file);
    List<NamedArray> kiln = ParamsFile.read(file);
    assertEquals(arrays.size(), mxnet.size());
    assertEquals(arrays.size(), kiln.size());
    for (int i = 0; i < arrays.size(); i++) {
      assertEquals(arrays.get(i).key(), mxnet.get(i).key());
      assertEquals(arrays.get(i).shape(), mxnet.get(i).shape());
      assertArrayEquals(arrays.get(i).data(), mxnet.get(i).data());
      assertEquals(mxnet.get(i).key(), kiln.get(i).key());
      assertEquals(mxnet.get(i).shape(), kiln.get(i).shape());
      assertArrayEquals(mxnet.get(i).data(), kiln.get(i).data());
    }
  }
}
