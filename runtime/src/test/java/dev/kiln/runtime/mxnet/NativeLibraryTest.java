package dev.kiln.runtime.mxnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.ptr.IntByReference;
import dev.kiln.runtime.TestJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kiln loads the libmxnet that DJL's engine loads: the copy DJL extracted from {@code
 * mxnet-native-mkl} (found from the jar's own properties) in the engine cache DJL would choose,
 * whatever {@code ENGINE_CACHE_DIR} and {@code DJL_CACHE_DIR} say as variables or properties, or
 * the library a user put on {@code java.library.path}; and it sets NumPy shape semantics as DJL's
 * engine would.
 */
class NativeLibraryTest {
  /** Unset, empty and set: the three states of a setting that DJL tells apart. */
  private static final String[] STATES = {null, "", "set"};

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

  /**
   * In this JVM, under whatever environment the build runs in (CI or a user may set either
   * variable): every combination of the two system properties gives DJL's folder.
   */
  @Test
  void theCacheFolderIsDjlsForEveryCombinationOfTheSystemProperties() {
    List<String> mismatches = CacheDirProbe.mismatches();
    assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
  }

  /** The same in fresh JVMs, under each combination of the two environment variables too. */
  @Test
  void theCacheFolderIsDjlsForEveryCombinationOfTheEnvironment() throws Exception {
    List<String> failures = new ArrayList<>();
    for (String engines : STATES) {
      for (String cache : STATES) {
        Map<String, String> env = new HashMap<>();
        env.put("ENGINE_CACHE_DIR", engines == null ? null : engines.replace("set", "/tmp/e-env"));
        env.put("DJL_CACHE_DIR", cache == null ? null : cache.replace("set", "/tmp/d-env"));
        TestJvm.Outcome o = TestJvm.run(CacheDirProbe.class, env, 60);
        if (!o.finished() || o.exitValue() != 0) {
          failures.add(env + ":\n" + o.output());
        }
      }
    }
    assertTrue(failures.isEmpty(), String.join("\n", failures));
  }

  /**
   * A {@code libmxnet.so} on {@code java.library.path} is what DJL's engine loads, so Kiln loads it
   * too rather than a second copy of MXNet in the same process.
   */
  @Test
  void aLibraryOnTheJavaLibraryPathWinsAsItDoesForDjl() throws Exception {
    // A link to the extracted copy (extracted by this load on a fresh machine) stands for a
    // libmxnet the user installed elsewhere.
    Mx.api();
    Path dir = Files.createTempDirectory("kiln-libpath");
    Path link = Files.createSymbolicLink(dir.resolve("libmxnet.so"), NativeLibrary.extracted());
    try {
      TestJvm.Outcome o =
          TestJvm.run(
              LibraryPathProbe.class, Map.of(), List.of("-Djava.library.path=/nowhere:" + dir), 60);
      assertTrue(o.finished() && o.exitValue() == 0, o.output());
      assertTrue(o.output().contains("kiln=" + link), o.output());
    } finally {
      Files.delete(link);
      Files.delete(dir);
    }
  }

  @Test
  void numpyShapeSemanticsAreOnForTheWholeProcessAsDjlsEngineSetsThem() {
    IntByReference mode = new IntByReference();
    Mx.check(Mx.api().MXIsNumpyShape(mode), "MXIsNumpyShape");
    assertEquals(2, mode.getValue(), "2 is MXNet's global NumPy shape mode");
  }

  /**
   * Compares Kiln's engine cache folder with DJL's under every combination of the system
   * properties, in this JVM's environment; as a main, prints the mismatches and exits 1 if any.
   */
  public static final class CacheDirProbe {
    public static void main(String[] args) {
      List<String> mismatches = mismatches();
      mismatches.forEach(System.out::println);
      System.exit(mismatches.isEmpty() ? 0 : 1);
    }

    static List<String> mismatches() {
      List<String> out = new ArrayList<>();
      for (String engines : STATES) {
        for (String cache : STATES) {
          set("ENGINE_CACHE_DIR", engines == null ? null : engines.replace("set", "/tmp/e-prop"));
          set("DJL_CACHE_DIR", cache == null ? null : cache.replace("set", "/tmp/d-prop"));
          try {
            Path djl = ai.djl.util.Utils.getEngineCacheDir();
            Path kiln = NativeLibrary.engineCacheDir();
            if (!djl.equals(kiln)) {
              out.add(
                  "ENGINE_CACHE_DIR env="
                      + System.getenv("ENGINE_CACHE_DIR")
                      + " prop="
                      + engines
                      + ", DJL_CACHE_DIR env="
                      + System.getenv("DJL_CACHE_DIR")
                      + " prop="
                      + cache
                      + ": DJL "
                      + djl
                      + ", Kiln "
                      + kiln);
            }
          } finally {
            set("ENGINE_CACHE_DIR", null);
            set("DJL_CACHE_DIR", null);
          }
        }
      }
      return out;
    }

    private static void set(String name, String value) {
      if (value == null) {
        System.clearProperty(name);
      } else {
        System.setProperty(name, value);
      }
    }
  }

  /** Prints the library Kiln would load and the one DJL's engine would, without loading either. */
  public static final class LibraryPathProbe {
    public static void main(String[] args) {
      String kiln = NativeLibrary.path();
      String djl = ai.djl.mxnet.jna.LibUtils.getLibName();
      System.out.println("kiln=" + kiln + " djl=" + djl);
      System.exit(kiln.equals(djl) ? 0 : 1);
    }
  }
}
