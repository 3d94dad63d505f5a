package dev.kiln.bench;

/**
 * One way of training the Fashion-MNIST MLP (784-128 relu-10, softmax cross-entropy, SGD with
 * learning rate 0.1) at a fixed batch size: the thing the benchmark times.
 */
interface TrainLoop extends AutoCloseable {
  /** One training step on a batch: {@code batch * 784} features and {@code batch} labels. */
  void step(float[] features, int[] labels);

  /** Waits until every step issued so far has finished inside MXNet. */
  void sync();

  /** Frees every native resource the loop holds. */
  @Override
  void close();
}
