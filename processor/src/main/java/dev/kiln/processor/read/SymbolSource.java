package dev.kiln.processor.read;

import java.util.List;

/**
 * Where the processor finds the symbol file an {@code @Imported} names: in the compiler's source
 * and class paths and beside the model's source file when it compiles, in a given file when the
 * command line inspects one.
 */
public interface SymbolSource {
  /**
   * The text of {@code symbol} as the model in package {@code pkg} names it: relative to the
   * package, or from the root with a leading {@code /}.
   *
   * @throws NotFound naming every place it looked
   */
  String read(String symbol, String pkg) throws NotFound;

  /**
   * The bytes of {@code file} (an ONNX model, which is binary), found as {@link #read} finds a
   * symbol file.
   *
   * @throws NotFound naming every place it looked
   */
  default byte[] bytes(String file, String pkg) throws NotFound {
    return read(file, pkg).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** A symbol file that is nowhere. */
  final class NotFound extends Exception {
    private static final long serialVersionUID = 1L;

    /** Where it was looked for, each as a reader would write it. */
    public final transient List<String> lookedIn;

    /** A symbol not found in any of {@code lookedIn}. */
    public NotFound(List<String> lookedIn) {
      super("not found in " + String.join(", ", lookedIn), null, false, false);
      this.lookedIn = List.copyOf(lookedIn);
    }
  }

  /** The name of {@code symbol} relative to the root: {@code pkg/as/folders/symbol}. */
  static String resolve(String symbol, String pkg) {
    if (symbol.startsWith("/")) {
      return symbol.substring(1);
    }
    return pkg.isEmpty() ? symbol : pkg.replace('.', '/') + "/" + symbol;
  }
}
