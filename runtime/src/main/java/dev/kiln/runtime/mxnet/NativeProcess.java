package dev.kiln.runtime.mxnet;

/** The process-level C call Kiln makes outside MXNet. */
public final class NativeProcess {
  private NativeProcess() {}

  /**
   * Ends the process at once with {@code status} through C's {@code _exit(2)}: no shutdown hooks,
   * no atexit handlers, no C++ static destructors (in which ps-lite aborts). Where there is no
   * POSIX C library it halts the JVM instead.
   */
  public static void exit(int status) {
    try {
      LibC.get()._exit(status);
    } catch (UnsatisfiedLinkError e) {
      Runtime.getRuntime().halt(status);
    }
  }
}
