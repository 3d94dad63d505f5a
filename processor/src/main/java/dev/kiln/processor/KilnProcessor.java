package dev.kiln.processor;

import com.google.auto.service.AutoService;
import com.palantir.javapoet.JavaFile;
import dev.kiln.annotations.Model;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;

/**
 * Kiln's annotation processor. For every {@code @Model} interface it runs three phases, each
 * only if the one before found no error: read the interface into a {@link ModelSpec}, check it
 * ({@link ShapeChecker}: wiring, cycles, shapes), and write {@code XGraph}, {@code XModel} and
 * {@code XExec}. A model with an error gets no generated code, so the user sees their mistake
 * and not a wall of missing classes.
 *
 * <p>It never claims annotations, and an unexpected exception while handling one model becomes
 * one error on that model; other models still compile. A model that refers to a type or constant
 * javac has not resolved is deferred to the next round, where another processor may have
 * generated it; if it is still missing when processing ends, javac's own error is the only one.
 */
@AutoService(Processor.class)
public final class KilnProcessor extends AbstractProcessor {

  /** Models that referred to unresolved types or constants, to read again next round. */
  private final Set<String> deferred = new TreeSet<>();

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return Set.of(Model.class.getCanonicalName());
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    List<TypeElement> models = new ArrayList<>();
    for (String name : deferred) {
      TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
      if (type != null) {
        models.add(type);
      }
    }
    deferred.clear();
    models.addAll(ElementFilter.typesIn(round.getElementsAnnotatedWith(Model.class)));
    models.sort(Comparator.comparing(Element::toString));
    for (TypeElement element : models) {
      Report report = new Report();
      try {
        processModel(element, report);
      } catch (ModelReader.Unresolved e) {
        // Another processor may generate what is missing; if none does, javac reports it.
        if (!round.processingOver()) {
          deferred.add(element.getQualifiedName().toString());
        }
        continue;
      } catch (Throwable t) {
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        report.add(Message.INTERNAL, element, element.getSimpleName(), trace);
      }
      report.printTo(processingEnv.getMessager());
    }
    return false;
  }

  private void processModel(TypeElement element, Report report)
      throws IOException, ModelReader.Unresolved {
    ModelSpec spec = new ModelReader(processingEnv.getElementUtils(), report).read(element);
    if (spec == null || report.hasErrors()) {
      return;
    }
    CheckedModel checked = new ShapeChecker(report).check(spec);
    if (checked == null) {
      return;
    }
    List<JavaFile> files = List.of(new GraphWriter(checked).write(),
        new ModelWriter(checked).write(), new ExecWriter(checked).write());
    for (JavaFile file : files) {
      file.writeTo(processingEnv.getFiler());
    }
  }
}
