package dev.kiln.runtime.train;

/**
 * Loss and accuracy of a classifier over a dataset.
 *
 * @param loss mean cross-entropy per example
 * @param accuracy fraction of examples whose most probable class is the label
 * @param examples examples evaluated
 */
public record Evaluation(double loss, double accuracy, int examples) {}
