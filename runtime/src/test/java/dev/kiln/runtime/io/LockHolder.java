package dev.kiln.runtime.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A child process that creates the file named by its argument, holds an exclusive lock on it as a
 * writer does on its temporary file, prints {@code LOCKED}, and waits (at most 60 s) to be killed:
 * a save in progress in another process.
 */
final class LockHolder {
  private LockHolder() {}

  /** Runs the child. */
  public static void main(String[] args) throws IOException, InterruptedException {
    try (FileChannel channel =
            FileChannel.open(
                Path.of(args[0]), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      System.out.println("LOCKED");
      System.out.flush();
      Thread.sleep(60_000);
      System.out.println("TIMED OUT " + lock.isValid());
    }
  }
}
