package dev.kiln.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the project's Markdown (the README, docs/, module READMEs) leads to a file
 * that exists and, when it names an anchor, to a heading of that file with the anchor GitHub gives
 * it.
 */
class DocLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Parser PARSER = Parser.builder().build();

  @Test
  void everyRelativeLinkAndAnchorResolves() throws IOException {
    List<Path> docs = markdownFiles();
    assertTrue(docs.size() > 10, "found the docs: " + docs);
    Map<Path, Set<String>> anchors = new HashMap<>();
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path doc : docs) {
      for (String target : links(parse(doc))) {
        if (target.matches("^[a-z][a-z0-9+.-]*:.*") || target.isEmpty()) {
          continue; // http:, https:, mailto: ... are not ours to check offline
        }
        checked++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(ROOT.relativize(doc) + ": " + target + " (no file " + resolved + ")");
          continue;
        }
        if (anchor != null && resolved.toString().endsWith(".md")) {
          Set<String> known = anchors.computeIfAbsent(resolved, DocLinksTest::anchorsOf);
          if (!known.contains(anchor)) {
            broken.add(
                ROOT.relativize(doc)
                    + ": "
                    + target
                    + " (no heading with anchor #"
                    + anchor
                    + " in "
                    + ROOT.relativize(resolved)
                    + ")");
          }
        }
      }
    }
    assertTrue(checked > 20, "checked " + checked + " links");
    assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
  }

  @Test
  void anchorsAreGitHubs() {
    Node doc =
        PARSER.parse(
            "# Set-up\n## Using Kiln in your build\n## `fit`, step by step\n## Set-up\n"
                + "## 2 contexts: 1.6x (LeNet)\n");
    assertTrue(
        headingAnchors(doc)
            .equals(
                List.of(
                    "set-up",
                    "using-kiln-in-your-build",
                    "fit-step-by-step",
                    "set-up-1",
                    "2-contexts-16x-lenet")),
        headingAnchors(doc).toString());
  }

  private static List<Path> markdownFiles() throws IOException {
    try (Stream<Path> all = Files.walk(ROOT)) {
      return all.filter(p -> p.toString().endsWith(".md"))
          .filter(
              p -> {
                String r = ROOT.relativize(p).toString();
                return !r.contains("target/") && !r.contains("node_modules/") && !r.startsWith(".");
              })
          .sorted()
          .toList();
    }
  }

  private static Node parse(Path doc) {
    try {
      return PARSER.parse(Files.readString(doc));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<String> links(Node doc) {
    List<String> out = new ArrayList<>();
    doc.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Link link) {
            out.add(link.getDestination());
            visitChildren(link);
          }

          @Override
          public void visit(Image image) {
            out.add(image.getDestination());
          }
        });
    return out;
  }

  private static Set<String> anchorsOf(Path doc) {
    return new HashSet<>(headingAnchors(parse(doc)));
  }

  /**
   * The anchors GitHub gives a file's headings: the text in lower case, without punctuation other
   * than hyphens and underscores, spaces made hyphens; a repeated anchor gets -1, -2, ...
   */
  static List<String> headingAnchors(Node doc) {
    List<String> out = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    doc.accept(
        new AbstractVisitor() {
          @Override
          public void visit(Heading heading) {
            StringBuilder text = new StringBuilder();
            heading.accept(
                new AbstractVisitor() {
                  @Override
                  public void visit(Text t) {
                    text.append(t.getLiteral());
                  }

                  @Override
                  public void visit(Code c) {
                    text.append(c.getLiteral());
                  }
                });
            String slug =
                text.toString()
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}\\s_-]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            out.add(n == 0 ? slug : slug + "-" + n);
          }
        });
    return out;
  }
}
