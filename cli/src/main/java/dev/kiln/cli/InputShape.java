package dev.kiln.cli;

import picocli.CommandLine;

/**
 * An {@code --input NAME=DIMS} value: an input's name and its shape, DIMS comma-separated with
 * {@code BATCH} (-1) for the batch dimension, e.g. {@code data=BATCH,3,224,224}.
 *
 * @param name the input's name
 * @param dims its dimensions, -1 for {@code BATCH}
 */
record InputShape(String name, int[] dims) {

  /**
   * Parses {@code value}, given to {@code --input} of {@code cmd}; a malformed one is a usage
   * error.
   */
  static InputShape parse(CommandLine cmd, String value) {
    int eq = value.indexOf('=');
    if (eq <= 0 || eq == value.length() - 1) {
      throw usage(cmd, value, "expected NAME=DIMS, e.g. data=BATCH,3,224,224");
    }
    String[] parts = value.substring(eq + 1).split(",", -1);
    int[] dims = new int[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.equalsIgnoreCase("BATCH")) {
        dims[i] = -1;
        continue;
      }
      try {
        dims[i] = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        dims[i] = 0;
      }
      if (dims[i] <= 0) {
        throw usage(
            cmd, value, "dimension '" + p + "' is neither BATCH nor a positive whole number");
      }
    }
    return new InputShape(value.substring(0, eq), dims);
  }

  /** A usage error of {@code --input} naming the value and why it is refused. */
  static CommandLine.ParameterException usage(CommandLine cmd, String value, String why) {
    return new CommandLine.ParameterException(
        cmd, "Invalid value for option '--input': '" + value + "': " + why);
  }
}
