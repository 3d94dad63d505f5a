package names;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** A classifier whose input is named like the graph's classifier build once was. */
@Model(classifier = true)
public interface ClassifierNamedBuild {
  @Input(shape = {BATCH, 4}) Sym buildClassifier();
  @Dense(units = 3) Sym build(Sym buildClassifier);
  @Softmax Sym classifier(Sym build);
}
