package dev.kiln.runtime.exec;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One model's thread contract, enforced at every public entry point of the model and of the objects
 * made from it (its classifier, parameters, executors and their arrays).
 *
 * <p>MXNet executors are not thread-safe (two threads in one executor's forward pass corrupt its
 * memory), and neither is the Java state around them. So a model serves <b>one call at a time</b>.
 * Under the default policy, {@link Policy#EXCLUSIVE}, a call that arrives while another thread is
 * inside a call of the same model fails at once with an {@link IllegalStateException} naming the
 * model, both threads and the call in progress. Under {@link Policy#SERIALIZED} (for serving one
 * model to many threads) such a call waits its turn instead. Calls from different threads one after
 * another are fine under both: the guard's lock orders them, so each sees everything the previous
 * one did.
 *
 * <p>{@link #close} is safe from any thread at any time: it asks long calls (a {@code fit}) to stop
 * after their current batch, waits for the call in progress to finish, then releases the model;
 * later calls fail with "closed". Calls made from inside a call (the same thread) nest freely.
 */
public final class CallGuard {
  /** What a call does when another thread is inside a call of the same model. */
  public enum Policy {
    /** Fail at once with an {@link IllegalStateException} (the default). */
    EXCLUSIVE,
    /** Wait until the other call has finished. */
    SERIALIZED
  }

  /** Leaving a call: closes the scope {@link #enter} opened. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  private final String model;
  private final ReentrantLock lock = new ReentrantLock();
  private final Scope scope = this::leave;
  private final Scope holdingScope =
      () -> {
        this.holding--;
        leave();
      };
  private volatile Policy policy = Policy.EXCLUSIVE;
  private volatile Thread holder;
  private volatile String holderCall;
  private volatile boolean closing;
  private volatile boolean closed;
  private Runnable deferred;
  private int holding;

  /** The guard of the model called {@code model} in messages. */
  public CallGuard(String model) {
    this.model = model;
  }

  /** The model's name, as messages give it. */
  public String model() {
    return model;
  }

  /** The current policy. */
  public Policy policy() {
    return policy;
  }

  /** Chooses what a concurrent call does from now on. */
  public void policy(Policy policy) {
    if (policy == null) {
      throw new IllegalArgumentException("policy must not be null");
    }
    this.policy = policy;
  }

  /**
   * Enters call {@code call} (e.g. {@code "forward"}) of the model on the calling thread; use in
   * try-with-resources.
   *
   * @throws IllegalStateException if another thread is inside a call under {@link
   *     Policy#EXCLUSIVE}, or the model is closed
   */
  public Scope enter(String call) {
    return enter(call, true);
  }

  /**
   * Like {@link #enter}, but leaves a check {@linkplain #deferToNextCall deferred} by the previous
   * call pending, also for the calls nested in this one until it returns: the caller runs it with
   * {@link #runDeferred()} when it suits it, and must before it reads or writes the model's
   * parameters or gradients.
   */
  public Scope enterLeavingDeferred(String call) {
    return enter(call, false);
  }

  /**
   * Makes the model's next call run {@code check} first, before it does anything else: its {@link
   * #enter} runs it, also when nested in a longer call (a listener's inside {@code fit}), unless
   * inside an {@link #enterLeavingDeferred} scope, and a check that throws fails that call. A call
   * that returns before it knows whether its work was sound (a training step that does not wait for
   * its gradients) defers the verdict this way, and every later use of the model, whatever it is,
   * sees the verdict before it sees the model. {@link #close} drops a pending check without running
   * it. Only the thread inside a call may defer, and only when no check is pending.
   */
  public void deferToNextCall(Runnable check) {
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException(model + ": only a call in progress can defer a check");
    }
    if (deferred != null) {
      throw new IllegalStateException(model + ": a deferred check is already pending");
    }
    deferred = check;
  }

  /** Runs the {@linkplain #deferToNextCall deferred} check now, if one is pending; once. */
  public void runDeferred() {
    if (!lock.isHeldByCurrentThread()) {
      throw new IllegalStateException(model + ": only a call in progress can run a deferred check");
    }
    Runnable check = deferred;
    deferred = null;
    if (check != null) {
      check.run();
    }
  }

  private Scope enter(String call, boolean runDeferred) {
    if (lock.isHeldByCurrentThread()) {
      lock.lock();
      return entered(runDeferred);
    }
    if (!lock.tryLock()) {
      if (policy == Policy.EXCLUSIVE) {
        refuseConcurrent(call);
      }
      lock.lock();
    }
    if (closed) {
      lock.unlock();
      throw new IllegalStateException(model + " is closed");
    }
    holder = Thread.currentThread();
    holderCall = call;
    return entered(runDeferred);
  }

  /**
   * Under {@link Policy#EXCLUSIVE}, with the lock held by another thread: fails naming that thread
   * and its call, or saying the model is being closed; returns only once the lock is free again
   * (the other call was leaving), for the caller to take it.
   */
  private void refuseConcurrent(String call) {
    String caller = model + "." + call + " called on thread '" + Thread.currentThread().getName();
    while (true) {
      Thread busy = holder;
      String busyCall = holderCall;
      if (closing) {
        throw new IllegalStateException(
            caller
                + "' while the model is being closed"
                + (busy == null ? "" : " by thread '" + busy.getName() + "'")
                + ": a closed model takes no more calls");
      }
      if (busy != null && busyCall != null) {
        throw new IllegalStateException(
            caller
                + "' while thread '"
                + busy.getName()
                + "' is inside "
                + model
                + "."
                + busyCall
                + ": a model serves one call at a time (MXNet executors are not "
                + "thread-safe); use one model per thread, or call threadPolicy(SERIALIZED) on the "
                + "model to make concurrent calls wait their turn");
      }
      // The other thread is between taking the lock and saying who it is, or leaving.
      if (!lock.isLocked()) {
        return;
      }
      Thread.onSpinWait();
    }
  }

  /** The scope of a call just entered (the lock is held): runs a deferred check, or holds it. */
  private Scope entered(boolean runDeferred) {
    if (!runDeferred) {
      holding++;
      return holdingScope;
    }
    if (holding == 0 && deferred != null) {
      try {
        runDeferred();
      } catch (RuntimeException | Error e) {
        leave();
        throw e;
      }
    }
    return scope;
  }

  private void leave() {
    if (lock.getHoldCount() == 1) {
      holder = null;
      holderCall = null;
    }
    lock.unlock();
  }

  /**
   * Whether {@link #close} has been asked for: long calls check it between batches and stop early.
   */
  public boolean closing() {
    return closing;
  }

  /** Whether the model has been released. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * Releases the model with {@code release} once no other thread is inside a call (waiting for the
   * call in progress, which is asked to stop early); does nothing if already closed.
   */
  public void close(Runnable release) {
    closing = true;
    lock.lock();
    boolean outermost = lock.getHoldCount() == 1;
    if (outermost) {
      holder = Thread.currentThread();
      holderCall = "close";
    }
    try {
      if (!closed) {
        closed = true;
        deferred = null;
        release.run();
      }
    } finally {
      if (outermost) {
        holder = null;
        holderCall = null;
      }
      lock.unlock();
    }
  }
}
