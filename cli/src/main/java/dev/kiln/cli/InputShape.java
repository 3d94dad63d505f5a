package dev.kiln.cli;

import dev.kiln.ops.rule.TShape;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.lang.model.SourceVersion;
import picocli.CommandLine;

/**
 * An {@code --input NAME=DIMS} value: an input's name and its shape, DIMS comma-separated, each a
 * positive size, {@code BATCH} (-1) for the batch dimension, {@code STEPS} (-5) for a number of
 * steps, or the name of a free dimension ({@code H}, a Java identifier), e.g. {@code
 * data=BATCH,3,H,W}.
 *
 * @param name the input's name
 * @param dims its dimensions as written: each a number, {@code BATCH}, {@code STEPS} or a name
 */
record InputShape(String name, List<String> dims) {

  /**
   * Parses {@code value}, given to {@code --input} of {@code cmd}; a malformed one is a usage
   * error.
   */
  static InputShape parse(CommandLine cmd, String value) {
    int eq = value.indexOf('=');
    if (eq <= 0 || eq == value.length() - 1) {
      throw usage(cmd, value, "expected NAME=DIMS, e.g. data=BATCH,3,224,224");
    }
    List<String> dims = List.of(value.substring(eq + 1).split(",", -1));
    for (String part : dims) {
      String p = part.trim();
      if (p.equalsIgnoreCase("BATCH") || p.equalsIgnoreCase("STEPS") || isName(p)) {
        continue;
      }
      int size;
      try {
        size = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        size = 0;
      }
      if (size <= 0) {
        throw usage(
            cmd,
            value,
            "dimension '"
                + p
                + "' is neither BATCH, STEPS, a positive whole number nor the name of a free "
                + "dimension (a Java identifier, e.g. H)");
      }
    }
    return new InputShape(value.substring(0, eq), dims.stream().map(String::trim).toList());
  }

  /**
   * The dimensions as numbers: {@code BATCH} -1, {@code STEPS} -5, and each name its free
   * dimension's placeholder in {@code free}, a new one (from -10 down) for a name not yet there.
   */
  int[] dims(Map<String, Integer> free) {
    int[] out = new int[dims.size()];
    for (int i = 0; i < out.length; i++) {
      String p = dims.get(i);
      String upper = p.toUpperCase(Locale.ROOT);
      if (upper.equals("BATCH")) {
        out[i] = TShape.BATCH;
      } else if (upper.equals("STEPS")) {
        out[i] = TShape.STEPS;
      } else if (isName(p)) {
        out[i] = free.computeIfAbsent(p, k -> TShape.PLACEHOLDER_FIRST - free.size());
      } else {
        out[i] = Integer.parseInt(p);
      }
    }
    return out;
  }

  /**
   * The dimensions as numbers where each must be {@code BATCH} (-1) or a positive size (a
   * checkpoint's inputs); anything else is a usage error of {@code cmd} naming {@code value}.
   */
  int[] sizes(CommandLine cmd, String value) {
    int[] out = new int[dims.size()];
    for (int i = 0; i < out.length; i++) {
      String p = dims.get(i);
      if (p.equalsIgnoreCase("BATCH")) {
        out[i] = TShape.BATCH;
        continue;
      }
      try {
        out[i] = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        throw usage(
            cmd, value, "dimension '" + p + "' is neither BATCH nor a positive whole number");
      }
    }
    return out;
  }

  /** Whether {@code p} can name a free dimension: a Java identifier, not a keyword. */
  private static boolean isName(String p) {
    return SourceVersion.isIdentifier(p) && !SourceVersion.isKeyword(p);
  }

  /** A usage error of {@code --input} naming the value and why it is refused. */
  static CommandLine.ParameterException usage(CommandLine cmd, String value, String why) {
    return new CommandLine.ParameterException(
        cmd, "Invalid value for option '--input': '" + value + "': " + why);
  }
}
