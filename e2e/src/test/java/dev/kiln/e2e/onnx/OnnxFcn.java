package dev.kiln.e2e.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * {@link OnnxFixtures#fcn()}, imported for any image size as {@code kiln import --onnx fcn.onnx
 * --name OnnxFcn} writes it: the file's {@code dim_param}s {@code height} and {@code width} are the
 * free dimensions {@code HEIGHT} and {@code WIDTH} (from {@code @Model} on, what {@code
 * OnnxFreeDimsTest} checks).
 */
@Model
public interface OnnxFcn {
  @FreeDim int HEIGHT = -10;
  @FreeDim int WIDTH = -11;

  @Input(shape = {BATCH, 3, HEIGHT, WIDTH})
  Sym input();

  @Imported(onnx = "fcn.onnx")
  Sym scores(Sym input);
}
