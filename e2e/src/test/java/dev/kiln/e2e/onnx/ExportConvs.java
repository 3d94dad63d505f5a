package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv1D;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Deconv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.GlobalMaxPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Lrn;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;
import dev.kiln.annotations.Upsample;

/** The convolution family, for export: grouped, dilated, transposed, 1-D, pools, LRN. */
@Model
public interface ExportConvs {
  /** Four channels of 10x10. */
  @Input(shape = {BATCH, 4, 10, 10})
  Sym image();

  /** Grouped and dilated. */
  @Conv2D(filters = 6, kernel = 3, pad = 2, dilation = 2, groups = 2, activation = Act.RELU)
  Sym grouped(Sym image);

  /** Normalised. */
  @BatchNorm
  Sym bn(Sym grouped);

  /** Local response normalisation. */
  @Lrn(size = 3)
  Sym lrn(Sym bn);

  /** Transposed, grouped, with output padding. */
  @Deconv2D(filters = 4, kernel = 3, stride = 2, pad = 1, outputPad = 1, groups = 2)
  Sym up(Sym lrn);

  /** Averages 2x2 windows. */
  @AvgPool(kernel = 2, pad = 1)
  Sym avg(Sym up);

  /** Nearest upsampling. */
  @Upsample(scale = 2)
  Sym near(Sym avg);

  /** Bilinear upsampling, corners aligned. */
  @Upsample(scale = 2, mode = Upsample.Mode.BILINEAR)
  Sym smooth(Sym near);

  /** Max over 3x3 windows, stride 2. */
  @MaxPool(kernel = 3, stride = 2)
  Sym max(Sym smooth);

  /** Each channel's mean. */
  @GlobalAvgPool
  Sym gap(Sym max);

  /** Removed in inference. */
  @Dropout(rate = 0.3)
  Sym dropped(Sym gap);

  /** Rows of 4. */
  @Flatten
  Sym flat(Sym dropped);

  /** Scores. */
  @Dense(units = 5)
  Sym scores(Sym flat);

  /** As a 1-D signal of 1 channel... */
  @Reshape(shape = {0, 1, 5})
  Sym signal(Sym scores);

  /** ... convolved. */
  @Conv1D(filters = 3, kernel = 2, pad = 1)
  Sym conv1d(Sym signal);

  /** Each channel's max. */
  @GlobalMaxPool
  Sym gmp(Sym conv1d);

  /** Flat. */
  @Flatten
  Sym flat2(Sym gmp);

  /** Squashed. */
  @Activation(Act.TANH)
  Sym tanh(Sym flat2);

  /** Probabilities. */
  @Softmax
  Sym probs(Sym tanh);
}
