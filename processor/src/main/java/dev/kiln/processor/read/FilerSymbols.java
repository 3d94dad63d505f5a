package dev.kiln.processor.read;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Filer;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Finds an imported symbol file where the compiler can see it: through the {@link Filer} in the
 * source path and the class path (Maven puts {@code src/main/resources} on the class path, and its
 * source folders on the source path), then beside the model's source file, where javac's trees say
 * where that is.
 */
public final class FilerSymbols implements SymbolSource {
  private final Filer filer;
  private final Path sourceFolder;

  /** Files found through {@code filer}, or in {@code sourceFolder} (null when unknown). */
  public FilerSymbols(Filer filer, Path sourceFolder) {
    this.filer = filer;
    this.sourceFolder = sourceFolder;
  }

  @Override
  public String read(String symbol, String pkg) throws NotFound {
    return new String(bytes(symbol, pkg), StandardCharsets.UTF_8);
  }

  @Override
  public byte[] bytes(String symbol, String pkg) throws NotFound {
    String resource = SymbolSource.resolve(symbol, pkg);
    int slash = resource.lastIndexOf('/');
    String folder = slash < 0 ? "" : resource.substring(0, slash).replace('/', '.');
    String name = resource.substring(slash + 1);
    List<String> looked = new ArrayList<>();
    looked.add("the source path");
    looked.add("the class path");
    for (StandardLocation location :
        List.of(StandardLocation.SOURCE_PATH, StandardLocation.CLASS_PATH)) {
      try {
        FileObject file = filer.getResource(location, folder, name);
        try (InputStream in = file.openInputStream()) {
          return in.readAllBytes();
        }
      } catch (IOException | IllegalArgumentException | UnsupportedOperationException e) {
        // Not there (or a location this compiler's filer does not read): look further.
      }
    }
    if (sourceFolder != null && !symbol.startsWith("/")) {
      Path beside = sourceFolder.resolve(symbol);
      looked.add("the model's folder " + sourceFolder);
      try {
        return Files.readAllBytes(beside);
      } catch (IOException e) {
        // Not there either.
      }
    }
    throw new NotFound(looked);
  }
}
