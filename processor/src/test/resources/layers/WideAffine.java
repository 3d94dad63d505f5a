package layers;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.Sym;

/** A custom layer with long names everywhere, to stress the generated code's line lengths. */
@Layer(input = {"batch", "inputFeaturesOfTheLayer"},
    output = {"batch", "outputFeaturesOfTheLayer"},
    forward = WideAffine.ForwardPassOfTheLayer.class)
public @interface WideAffine {
  int outputFeaturesOfTheLayer();

  float scaleOfTheOutputValues() default 1f;

  final class ForwardPassOfTheLayer {
    private ForwardPassOfTheLayer() {}

    public static Sym computeTheScaledAffineMapOfTheInput(Sym theInputOfTheLayer,
        @Param(shape = {"inputFeaturesOfTheLayer", "outputFeaturesOfTheLayer"})
            Sym weightMatrix,
        @Param(shape = {"outputFeaturesOfTheLayer"}, zeros = true) Sym biasVector,
        float scaleOfTheOutputValues) {
      return theInputOfTheLayer.dot(weightMatrix).add(biasVector)
          .scale(scaleOfTheOutputValues);
    }
  }
}
