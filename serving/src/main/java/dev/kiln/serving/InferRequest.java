package dev.kiln.serving;

import dev.kiln.runtime.graph.Shape;
import java.util.List;

/**
 * One parsed and checked inference request of the Open Inference Protocol.
 *
 * @param id the request's {@code id}, echoed in the answer, or null
 * @param batch the examples it holds (the batch dimension of every input)
 * @param shapes each input's complete shape, in the model's input order (a model with free
 *     dimensions takes requests of several shapes)
 * @param inputs one row-major array per model input, in the model's input order
 * @param outputs the indices of the model outputs to answer with, in the order asked
 * @param binary for each of {@code outputs}, whether its data goes in the answer as binary (the
 *     protocol's binary tensor data extension) rather than as JSON numbers
 */
record InferRequest(
    String id,
    int batch,
    List<Shape> shapes,
    float[][] inputs,
    List<Integer> outputs,
    List<Boolean> binary) {
  /** Copies the shapes. */
  InferRequest {
    shapes = List.copyOf(shapes);
  }
}
