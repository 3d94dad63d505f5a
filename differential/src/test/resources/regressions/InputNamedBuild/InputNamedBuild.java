package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Found by the differential suite (seed 41, reduced by hand): an input named {@code build}. The
 * generated {@code InputNamedBuildGraph} implemented the interface's {@code Sym build()} beside
 * its own {@code public static Graph build()}, and javac rejected the generated code: "method
 * build() is already defined in class regression.InputNamedBuildGraph" (an input named {@code
 * buildClassifier} of a classifier clashed the same way). The graph's one static entry point is
 * now {@code build(GraphBuilder)}, which no node method can be.
 */
@Model
public interface InputNamedBuild {
  @Input(shape = {BATCH, 3})
  Sym build();

  @Dense(units = 2)
  Sym score(Sym build);
}
