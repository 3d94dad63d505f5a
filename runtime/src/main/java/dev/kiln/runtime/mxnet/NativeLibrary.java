package dev.kiln.runtime.mxnet;

import ai.djl.mxnet.jna.LibUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Where libmxnet is: the copy DJL extracted from the {@code mxnet-native-*} jar on the class path
 * into its engine cache ({@code ~/.djl.ai/mxnet/<version>-<classifier>/}, or under {@code
 * DJL_CACHE_DIR} / {@code ENGINE_CACHE_DIR}), found from the jar's own {@code
 * native/lib/mxnet.properties} without DJL's platform detection. When there is no such copy yet (a
 * fresh machine), or another library overrides it as DJL allows ({@code MXNET_LIBRARY_PATH}, or a
 * {@code libmxnet.so} in a folder of {@code java.library.path}), DJL's {@code
 * LibUtils.getLibName()} decides, and extracts the library if it must: Kiln and DJL's engine always
 * load the same file.
 *
 * <p>The cache folder is found as DJL 0.36's {@code Utils.getEngineCacheDir} finds it, but without
 * touching that class: its static initialiser starts slf4j, which took 120–150 ms of a fresh JVM's
 * start-up (issue 14). {@code NativeLibraryTest} checks that both give the same folder.
 */
public final class NativeLibrary {
  private static final String PROPERTIES = "native/lib/mxnet.properties";

  private NativeLibrary() {}

  /** The path (or name) to give {@code Native.load}. */
  public static String path() {
    if (setting("MXNET_LIBRARY_PATH") == null && onLibraryPath() == null) {
      Path extracted = extracted();
      if (extracted != null && Files.isRegularFile(extracted)) {
        return extracted.toString();
      }
    }
    return LibUtils.getLibName();
  }

  /**
   * A {@code libmxnet} in a folder of {@code java.library.path} (or that entry itself, when it
   * names the file), which DJL's {@code LibUtils} prefers to the bundled copy; null when there is
   * none.
   */
  static Path onLibraryPath() {
    String dirs = System.getProperty("java.library.path");
    if (dirs == null || dirs.isEmpty()) {
      return null;
    }
    String name = System.mapLibraryName("mxnet");
    for (String entry : dirs.split(java.io.File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path p = Path.of(entry);
      if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(name)) {
        return p.toAbsolutePath();
      }
      Path inside = p.resolve(name);
      if (Files.isRegularFile(inside)) {
        return inside.toAbsolutePath();
      }
    }
    return null;
  }

  /** Where DJL extracts the bundled library, or null when no native jar is on the class path. */
  static Path extracted() {
    Properties p = new Properties();
    try (InputStream in = NativeLibrary.class.getClassLoader().getResourceAsStream(PROPERTIES)) {
      if (in == null) {
        return null;
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + PROPERTIES + " of the MXNet native jar", e);
    }
    String version = p.getProperty("version");
    String classifier = p.getProperty("classifier");
    if (version == null || classifier == null) {
      return null;
    }
    return engineCacheDir()
        .resolve("mxnet")
        .resolve(version + "-" + classifier)
        .resolve(System.mapLibraryName("mxnet"));
  }

  /**
   * DJL's engine cache: {@code ENGINE_CACHE_DIR}, else {@code DJL_CACHE_DIR}, else {@code .djl.ai}
   * in the home folder (in the temporary folder when the home folder is not writable).
   */
  static Path engineCacheDir() {
    String engines = setting("ENGINE_CACHE_DIR");
    if (engines != null && !engines.isEmpty()) {
      return Path.of(engines);
    }
    String cache = setting("DJL_CACHE_DIR");
    if (cache != null && !cache.isEmpty()) {
      return Path.of(cache);
    }
    Path home = Path.of(System.getProperty("user.home"));
    if (!Files.isWritable(home)) {
      home = Path.of(System.getProperty("java.io.tmpdir"));
    }
    return home.resolve(".djl.ai");
  }

  /** An environment variable, or else the system property of the same name, as DJL reads them. */
  private static String setting(String name) {
    String env = System.getenv(name);
    return env != null ? env : System.getProperty(name);
  }
}
