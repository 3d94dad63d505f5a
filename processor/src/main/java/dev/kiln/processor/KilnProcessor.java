package dev.kiln.processor;

import com.google.auto.service.AutoService;
import dev.kiln.annotations.Model;
import dev.kiln.ops.rule.Message;
import dev.kiln.processor.check.ModelChecker;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.read.FilerSymbols;
import dev.kiln.processor.read.ModelReader;
import dev.kiln.processor.read.SourceAnnotations;
import dev.kiln.processor.read.Validation;
import dev.kiln.processor.write.DescriptionWriter;
import dev.kiln.processor.write.GeneratedFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * Kiln's annotation processor. For every {@code @Model} interface it runs three phases, each only
 * if the one before found no error: read the interface into a description ({@code read}), check its
 * wiring and shapes ({@code check}), and write {@code XGraph}, {@code XModel} and {@code XExec}
 * ({@code write}). A model with an error gets no generated code, so the user sees their mistake and
 * not a wall of missing classes. Diagnostics come from one catalogue ({@code diag.Message}) and are
 * printed once per model.
 *
 * <p>Defer, don't guess: a model is read only once {@link Validation} finds every type and value it
 * refers to resolved; until then it waits, by name, for a later round, where another processor may
 * have generated what is missing. In the last round a model still waiting is read if what it waits
 * for is a layer annotation javac may have hidden (so a missing one is reported), unless javac's
 * trees show that annotation, unresolved, in the source ({@link SourceAnnotations}); a model with
 * an unresolved reference is reported once, and only if the compiler has no error of its own for
 * it: none raised so far, and the reference not written in a source file of this compilation (javac
 * and ecj report those after the last round).
 *
 * <p>It never claims annotations, and an unexpected exception while handling one model becomes one
 * error on that model; other models still compile.
 */
@AutoService(Processor.class)
public final class KilnProcessor extends AbstractProcessor {
  /** Models waiting for a later round, by qualified name, in name order. */
  private final Set<String> deferred = new TreeSet<>();

  /** The qualified names of the top-level types of this compilation's sources, every round's. */
  private final Set<String> sources = new HashSet<>();

  /** javac's view of the sources' annotations, where there is one (see {@link #init}). */
  private SourceAnnotations source = SourceAnnotations.none();

  /**
   * Also looks for javac's trees ({@link SourceAnnotations}), which show a layer annotation javac
   * could not resolve; without them (ecj, a wrapped environment) a method without a visible layer
   * is reported as {@code MissingLayer}.
   */
  @Override
  public synchronized void init(ProcessingEnvironment env) {
    super.init(env);
    source = SourceAnnotations.of(env);
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(Model.class.getCanonicalName());
  }

  /**
   * {@code kiln.describe} (any value but {@code false}): also write {@code
   * <Model>.kiln.properties}, what was inferred, beside the model's classes (see {@link
   * DescriptionWriter}).
   */
  @Override
  public Set<String> getSupportedOptions() {
    return Set.of(DescriptionWriter.OPTION);
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    for (TypeElement root : ElementFilter.typesIn(round.getRootElements())) {
      sources.add(root.getQualifiedName().toString());
    }
    Set<String> models = new TreeSet<>(deferred);
    deferred.clear();
    for (TypeElement model : ElementFilter.typesIn(round.getElementsAnnotatedWith(Model.class))) {
      models.add(model.getQualifiedName().toString());
    }
    for (String name : models) {
      TypeElement model = processingEnv.getElementUtils().getTypeElement(name);
      if (model != null) {
        handle(model, round);
      }
    }
    return false;
  }

  /** Defers, reports or generates {@code model}, whatever its state in this round calls for. */
  private void handle(TypeElement model, RoundEnvironment round) {
    Report report = new Report();
    try {
      Validation.Incomplete incomplete = Validation.check(model, source);
      if (incomplete != null && !round.processingOver()) {
        deferred.add(model.getQualifiedName().toString());
        return;
      }
      if (incomplete instanceof Validation.Unresolved u) {
        boolean compilerReports =
            u.writtenIn() != null && sources.contains(u.writtenIn().getQualifiedName().toString());
        if (!round.errorRaised() && !compilerReports) {
          report.add(
              Message.UNRESOLVED,
              u.site(),
              where(model, u.site()),
              u.what(),
              u.missing(),
              model.getSimpleName());
        }
      } else {
        generate(model, report);
      }
    } catch (Throwable t) {
      StringWriter trace = new StringWriter();
      t.printStackTrace(new PrintWriter(trace));
      report.add(Message.INTERNAL, model, model.getSimpleName(), trace);
    }
    report.printTo(processingEnv.getMessager());
  }

  /** Reads, checks and writes {@code model}, each phase only if the one before was clean. */
  private void generate(TypeElement model, Report report) throws IOException {
    FilerSymbols symbols = new FilerSymbols(processingEnv.getFiler(), source.sourceFolder(model));
    ModelSpec spec =
        new ModelReader(
                processingEnv.getElementUtils(),
                report,
                symbols,
                (s, r) -> new ModelChecker(r).check(s),
                source)
            .read(model);
    if (spec == null || report.hasErrors()) {
      return;
    }
    CheckedModel checked = new ModelChecker(report).check(spec);
    if (checked == null) {
      return;
    }
    GeneratedFiles.write(checked, processingEnv.getFiler());
    Map<String, String> options = processingEnv.getOptions();
    if (options.containsKey(DescriptionWriter.OPTION)
        && !"false".equals(options.get(DescriptionWriter.OPTION))) {
      DescriptionWriter.write(checked, processingEnv.getFiler());
    }
  }

  /** {@code Net.y()} for a method of {@code model}, {@code Net} for the model itself. */
  private static String where(TypeElement model, Element site) {
    return site instanceof ExecutableElement m
        ? model.getSimpleName() + "." + m.getSimpleName() + "()"
        : model.getSimpleName().toString();
  }
}
