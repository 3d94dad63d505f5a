package dev.kiln.processor;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every mistake of {@link BadCases}, under javac and under ecj: exactly one diagnostic, with its id
 * and exact wording, in the file and on the line at fault, and no generated code for an error.
 */
class DiagnosticsTest {
  static Stream<Arguments> cases() {
    return BadCases.ALL.stream()
        .flatMap(c -> Stream.of(TestCompiler.values()).map(compiler -> Arguments.of(compiler, c)));
  }

  @ParameterizedTest(name = "[{0}] {1}")
  @MethodSource("cases")
  void oneMistakeGivesOneDiagnosticAtTheSpot(TestCompiler compiler, BadCase mistake) {
    mistake.check(compiler);
  }
}
