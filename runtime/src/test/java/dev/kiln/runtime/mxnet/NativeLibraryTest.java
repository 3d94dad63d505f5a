package dev.kiln.runtime.mxnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.ptr.IntByReference;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Kiln loads the libmxnet that DJL extracted from {@code mxnet-native-mkl}, found from the jar's
 * own properties, and sets NumPy shape semantics as DJL's engine would.
 */
class NativeLibraryTest {
  @Test
  void theLoadedLibraryIsTheOneDjlExtractsFromTheNativeJar() {
    IntByReference version = new IntByReference();
    Mx.check(Mx.api().MXGetVersion(version), "MXGetVersion");
    // The 1.9.1 build in mxnet-native-mkl reports 10900.
    assertEquals(109, version.getValue() / 100, "MXNet 1.9, got " + version.getValue());
    // After the first load (through DJL's LibUtils on a fresh machine), the copy is where Kiln
    // looks for it, so later JVMs skip DJL's platform detection.
    Path extracted = NativeLibrary.extracted();
    assertNotNull(extracted, "mxnet-native-mkl's native/lib/mxnet.properties is on the class path");
    assertTrue(
        extracted.endsWith(Path.of("1.9.1-20220812-mkl-linux-x86_64", "libmxnet.so")),
        extracted.toString());
    assertTrue(Files.isRegularFile(extracted), extracted + " exists");
    assertEquals(extracted.toString(), NativeLibrary.path());
  }

  @Test
  void theCacheFolderIsDjlsOwn() {
    assertEquals(ai.djl.util.Utils.getEngineCacheDir(), NativeLibrary.engineCacheDir());
    System.setProperty("ENGINE_CACHE_DIR", "/tmp/kiln-engines");
    try {
      assertEquals(ai.djl.util.Utils.getEngineCacheDir(), NativeLibrary.engineCacheDir());
      assertEquals(Path.of("/tmp/kiln-engines"), NativeLibrary.engineCacheDir());
    } finally {
      System.clearProperty("ENGINE_CACHE_DIR");
    }
    System.setProperty("DJL_CACHE_DIR", "/tmp/kiln-djl");
    try {
      assertEquals(ai.djl.util.Utils.getEngineCacheDir(), NativeLibrary.engineCacheDir());
    } finally {
      System.clearProperty("DJL_CACHE_DIR");
    }
  }

  @Test
  void numpyShapeSemanticsAreOnForTheWholeProcessAsDjlsEngineSetsThem() {
    IntByReference mode = new IntByReference();
    Mx.check(Mx.api().MXIsNumpyShape(mode), "MXIsNumpyShape");
    assertEquals(2, mode.getValue(), "2 is MXNet's global NumPy shape mode");
  }
}
