package dev.kiln.runtime.train;

/**
 * One finished epoch.
 *
 * @param epoch the epoch, from 1
 * @param trainLoss mean training loss over the epoch's batches, weighted by examples
 * @param trainAccuracy training accuracy over the epoch
 * @param validation loss and accuracy on the validation set, or null when there is none
 * @param seconds wall time of the epoch's training (validation excluded)
 */
public record EpochStats(
    int epoch, double trainLoss, double trainAccuracy, Evaluation validation, double seconds) {}
