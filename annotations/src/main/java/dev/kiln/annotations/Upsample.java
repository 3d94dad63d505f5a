package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Upsampling of images {@code [N, C, H, W]} by a whole factor along height and width, to {@code [N,
 * C, H · scale, W · scale]}: MXNet's {@code UpSampling} (nearest) or {@code
 * _contrib_BilinearResize2D} (bilinear). The decoder half of a segmentation network or an
 * autoencoder, and what ONNX's {@code Resize} and {@code Upsample} with whole scales are.
 *
 * <pre>{@code @Upsample(scale = 2) Sym larger(Sym features);   // each value repeated 2x2}</pre>
 *
 * <p>Shape rule: the input has rank 4 and the output multiplies its height and width by {@code
 * scale}, a positive whole number. No parameters.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Upsample {
  /** How many output positions each input position becomes along each axis; positive. */
  int scale();

  /** How the new positions get their values; {@link Mode#NEAREST} by default. */
  Mode mode() default Mode.NEAREST;

  /** How an upsampled value is computed. */
  enum Mode {
    /** The value of the input position it falls in (each value repeated scale × scale times). */
    NEAREST,
    /**
     * Linear in each axis between the four nearest input positions, the corners aligned: output
     * position {@code i} samples input position {@code i · (H - 1) / (H · scale - 1)} (MXNet's
     * {@code BilinearResize2D}; PyTorch's {@code align_corners = True}).
     */
    BILINEAR
  }
}
