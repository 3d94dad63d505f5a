package dev.kiln.runtime.graph;

/**
 * One model input.
 *
 * @param name the input's name (its method's name)
 * @param shape the declared shape; {@code BATCH} dimensions are fixed at bind time
 */
public record InputSpec(String name, Shape shape) {}
