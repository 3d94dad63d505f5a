package dev.kiln.processor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.Completion;
import javax.annotation.processing.Filer;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.FileObject;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;

/**
 * Runs a processor (Kiln, or one of a test's own) and records every source file it creates, through
 * an environment that wraps the compiler's. compile-testing shows generated files only when
 * compilation succeeds; this shows them when it fails too, so a test can check that a model with an
 * error generated nothing. Kiln in such an environment is Kiln as Gradle's incremental processing
 * runs it: without javac's trees.
 */
final class RecordingProcessor implements Processor {
  private final Processor kiln;
  private final List<String> created = new ArrayList<>();

  /** Records what Kiln creates. */
  RecordingProcessor() {
    this(new KilnProcessor());
  }

  /** Records what {@code processor} creates. */
  RecordingProcessor(Processor processor) {
    this.kiln = processor;
  }

  /** Qualified names of the source files created so far, in order. */
  List<String> createdSourceFiles() {
    return List.copyOf(created);
  }

  @Override
  public Set<String> getSupportedOptions() {
    return kiln.getSupportedOptions();
  }

  @Override
  public Set<String> getSupportedAnnotationTypes() {
    return kiln.getSupportedAnnotationTypes();
  }

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return kiln.getSupportedSourceVersion();
  }

  @Override
  public void init(ProcessingEnvironment env) {
    kiln.init(new RecordingEnvironment(env));
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    return kiln.process(annotations, round);
  }

  @Override
  public Iterable<? extends Completion> getCompletions(
      Element element, AnnotationMirror annotation, ExecutableElement member, String userText) {
    return kiln.getCompletions(element, annotation, member, userText);
  }

  /** javac's environment, but with a {@link Filer} that records what it creates. */
  private final class RecordingEnvironment implements ProcessingEnvironment {
    private final ProcessingEnvironment env;
    private final Filer filer;

    RecordingEnvironment(ProcessingEnvironment env) {
      this.env = env;
      this.filer = new RecordingFiler(env.getFiler());
    }

    @Override
    public Map<String, String> getOptions() {
      return env.getOptions();
    }

    @Override
    public Messager getMessager() {
      return env.getMessager();
    }

    @Override
    public Filer getFiler() {
      return filer;
    }

    @Override
    public Elements getElementUtils() {
      return env.getElementUtils();
    }

    @Override
    public Types getTypeUtils() {
      return env.getTypeUtils();
    }

    @Override
    public SourceVersion getSourceVersion() {
      return env.getSourceVersion();
    }

    @Override
    public Locale getLocale() {
      return env.getLocale();
    }

    @Override
    public boolean isPreviewEnabled() {
      return env.isPreviewEnabled();
    }
  }

  private final class RecordingFiler implements Filer {
    private final Filer filer;

    RecordingFiler(Filer filer) {
      this.filer = filer;
    }

    @Override
    public JavaFileObject createSourceFile(CharSequence name, Element... originatingElements)
        throws IOException {
      JavaFileObject file = filer.createSourceFile(name, originatingElements);
      created.add(name.toString());
      return file;
    }

    @Override
    public JavaFileObject createClassFile(CharSequence name, Element... originatingElements)
        throws IOException {
      return filer.createClassFile(name, originatingElements);
    }

    @Override
    public FileObject createResource(
        JavaFileManager.Location location,
        CharSequence moduleAndPkg,
        CharSequence relativeName,
        Element... originatingElements)
        throws IOException {
      return filer.createResource(location, moduleAndPkg, relativeName, originatingElements);
    }

    @Override
    public FileObject getResource(
        JavaFileManager.Location location, CharSequence moduleAndPkg, CharSequence relativeName)
        throws IOException {
      return filer.getResource(location, moduleAndPkg, relativeName);
    }
  }
}
