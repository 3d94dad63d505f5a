package dev.kiln.runtime.mxnet;

import ai.djl.mxnet.jna.LibUtils;
import ai.djl.util.Utils;
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
 * fresh machine), or {@code MXNET_LIBRARY_PATH} names another library, DJL's {@code
 * LibUtils.getLibName()} decides, and extracts the library if it must.
 */
public final class NativeLibrary {
  private static final String PROPERTIES = "native/lib/mxnet.properties";

  private NativeLibrary() {}

  /** The path (or name) to give {@code Native.load}. */
  public static String path() {
    if (Utils.getEnvOrSystemProperty("MXNET_LIBRARY_PATH") == null) {
      Path extracted = extracted();
      if (extracted != null && Files.isRegularFile(extracted)) {
        return extracted.toString();
      }
    }
    return LibUtils.getLibName();
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
    return Utils.getEngineCacheDir("mxnet")
        .resolve(version + "-" + classifier)
        .resolve(System.mapLibraryName("mxnet"));
  }
}
