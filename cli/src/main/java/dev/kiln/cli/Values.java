package dev.kiln.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Checks of option values that picocli's types cannot make: a value out of its range is a usage
 * mistake, reported as one line naming the option, its bounds and the value, then the usage line,
 * with exit status 2 (as an unknown option is).
 */
final class Values {
  private Values() {}

  /**
   * Refuses {@code value} of {@code option} below {@code least}.
   *
   * @throws CommandLine.ParameterException if {@code value < least}
   */
  static void atLeast(CommandSpec spec, String option, long value, long least) {
    if (value < least) {
      throw usage(spec, option + " must be at least " + least + ", got " + value);
    }
  }

  /**
   * Refuses {@code value} of {@code option} outside {@code least..most}.
   *
   * @throws CommandLine.ParameterException if {@code value} is out of the range
   */
  static void inRange(CommandSpec spec, String option, long value, long least, long most) {
    if (value < least || value > most) {
      throw usage(spec, option + " must be in " + least + ".." + most + ", got " + value);
    }
  }

  /** A usage mistake of {@code spec}'s command: {@code message}, then the usage line, exit 2. */
  static CommandLine.ParameterException usage(CommandSpec spec, String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
