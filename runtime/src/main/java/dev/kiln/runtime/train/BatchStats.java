package dev.kiln.runtime.train;

/**
 * One training batch.
 *
 * @param epoch the epoch, from 1
 * @param batch the batch within the epoch, from 1
 * @param loss the batch's mean cross-entropy loss
 * @param accuracy the batch's fraction of correct predictions
 * @param examples examples in the batch
 */
public record BatchStats(int epoch, int batch, double loss, double accuracy, int examples) {}
