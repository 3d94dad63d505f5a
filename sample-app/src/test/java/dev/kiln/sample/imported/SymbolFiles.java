package dev.kiln.sample.imported;

import dev.kiln.runtime.mxnet.SymbolHandle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The symbol files the import tests read, written by MXNet itself: each graph is composed through
 * MXNet's C API ({@code MXSymbolCreateAtomicSymbol}, {@code MXSymbolCompose}, which makes the
 * weight and bias variables with MXNet's own names, as {@code mx.sym} does) and saved with {@code
 * MXSymbolSaveToJSON}. {@link SymbolFilesTest} checks that the files under {@code
 * src/test/resources} are what MXNet writes; {@link #main} rewrites them.
 */
public final class SymbolFiles {
  /** Where the files live, relative to the module. */
  static final Path DIR = Path.of("src/test/resources/dev/kiln/sample/imported");

  private SymbolFiles() {}

  /** The files by name, as MXNet writes them now. */
  static Map<String, String> all() {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("lenet-symbol.json", lenet());
    return files;
  }

  /** Writes every file into {@link #DIR}. */
  public static void main(String[] args) throws IOException {
    for (Map.Entry<String, String> f : all().entrySet()) {
      Files.writeString(DIR.resolve(f.getKey()), f.getValue() + "\n", StandardCharsets.UTF_8);
    }
  }

  /**
   * MXNet's classic LeNet ({@code example/image-classification/symbols/lenet.py}'s graph): two tanh
   * convolutions with max pooling, two fully connected layers, {@code SoftmaxOutput}.
   */
  static String lenet() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x = c.op("Convolution", "conv1", x, "kernel", "(5, 5)", "num_filter", "20");
      x = c.op("Activation", "tanh1", x, "act_type", "tanh");
      x = c.op("Pooling", "pool1", x, "pool_type", "max", "kernel", "(2, 2)", "stride", "(2, 2)");
      x = c.op("Convolution", "conv2", x, "kernel", "(5, 5)", "num_filter", "50");
      x = c.op("Activation", "tanh2", x, "act_type", "tanh");
      x = c.op("Pooling", "pool2", x, "pool_type", "max", "kernel", "(2, 2)", "stride", "(2, 2)");
      x = c.op("Flatten", "flatten", x);
      x = c.op("FullyConnected", "fc1", x, "num_hidden", "500");
      x = c.op("Activation", "tanh3", x, "act_type", "tanh");
      x = c.op("FullyConnected", "fc2", x, "num_hidden", "10");
      x = c.op("SoftmaxOutput", "softmax", x);
      return x.toJson();
    }
  }

  /** Composes operators over one input each, as {@code mx.sym.Op(data=x, name=..., ...)} does. */
  static final class Composer implements AutoCloseable {
    private final List<SymbolHandle> made = new ArrayList<>();

    SymbolHandle variable(String name) {
      SymbolHandle v = SymbolHandle.variable(name);
      made.add(v);
      return v;
    }

    /** {@code op} named {@code name} over {@code data}, with attributes key, value, ... */
    SymbolHandle op(String op, String name, SymbolHandle data, String... attrs) {
      return op(op, name, new String[] {"data"}, new SymbolHandle[] {data}, attrs);
    }

    /** {@code op} named {@code name} over {@code args} by keyword {@code keys}. */
    SymbolHandle op(String op, String name, String[] keys, SymbolHandle[] args, String... attrs) {
      String[] k = new String[attrs.length / 2];
      String[] v = new String[attrs.length / 2];
      for (int i = 0; i < k.length; i++) {
        k[i] = attrs[2 * i];
        v[i] = attrs[2 * i + 1];
      }
      SymbolHandle s = SymbolHandle.operator(op, k, v);
      made.add(s);
      s.compose(name, keys, args);
      return s;
    }

    @Override
    public void close() {
      made.forEach(SymbolHandle::close);
    }
  }
}
