package dev.kiln.differential;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The kept regression models: every model that ever failed, one folder per case under {@code
 * src/test/resources/regressions/<Name>/}, holding the {@code @Model} interface {@code <Name>.java}
 * (package {@code regression}) and any custom layers it uses. A line {@code differential: seed=17
 * init=he} in the model's comment replays the checks' random choices of the run that found it
 * (default seed 0, init xavier). Models of defects not fixed yet live the same way under {@code
 * known-defects/} and run only from {@link KnownDefectsTest}, whose tests are disabled until the
 * defect is fixed.
 */
final class Regressions {
  static final String PACKAGE = "regression";
  private static final Pattern META = Pattern.compile("differential: seed=(-?\\d+) init=(\\w+)");

  private Regressions() {}

  /** Every kept case, by folder name. */
  static List<ModelCase> all() {
    Path root = root("/regressions");
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.filter(Files::isDirectory).sorted().map(Regressions::load).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The case in folder {@code name}. */
  static ModelCase get(String name) {
    return load(root("/regressions").resolve(name));
  }

  /** The known defect's case in folder {@code name} of {@code known-defects/}. */
  static ModelCase knownDefect(String name) {
    return load(root("/known-defects").resolve(name));
  }

  private static Path root(String folder) {
    try {
      return Path.of(Regressions.class.getResource(folder).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ModelCase load(Path dir) {
    String name = dir.getFileName().toString();
    try (Stream<Path> files = Files.list(dir)) {
      Map<String, String> sources = new LinkedHashMap<>();
      Path main = dir.resolve(name + ".java");
      sources.put(PACKAGE + "." + name, Files.readString(main));
      for (Path f :
          files.filter(p -> p.toString().endsWith(".java") && !p.equals(main)).sorted().toList()) {
        String type = f.getFileName().toString().replace(".java", "");
        sources.put(PACKAGE + "." + type, Files.readString(f));
      }
      Matcher m = META.matcher(sources.get(PACKAGE + "." + name));
      long seed = m.find() ? Long.parseLong(m.group(1)) : 0;
      String init = m.find(0) ? m.group(2) : "xavier";
      return new ModelCase(name, PACKAGE + "." + name, seed, true, init, sources, List.of());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
