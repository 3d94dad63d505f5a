package dev.kiln.runtime.mxnet;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * The few C library calls Kiln makes beside MXNet's: setting MXNet's environment variables before
 * it reads them, leaving a distributed node without C++ static destructors, and the semaphore
 * {@link PriorityWait} blocks on.
 */
public interface LibC extends Library {
  /** {@code setenv(3)}. */
  int setenv(String name, String value, int overwrite);

  /** {@code _exit(2)}: ends the process at once, running no atexit handlers or destructors. */
  void _exit(int status);

  /** {@code sem_init(3)} on the {@code sem_t} at {@code sem}. */
  int sem_init(Pointer sem, int pshared, int value);

  /** {@code sem_wait(3)}: -1 with {@code errno} EINTR when a signal interrupted it. */
  int sem_wait(Pointer sem);

  /**
   * The loaded C library.
   *
   * @throws UnsatisfiedLinkError where there is no POSIX C library
   */
  static LibC get() {
    return Holder.C;
  }

  /** Loads the library on first use. */
  final class Holder {
    private static final LibC C = Native.load("c", LibC.class);

    private Holder() {}
  }
}
