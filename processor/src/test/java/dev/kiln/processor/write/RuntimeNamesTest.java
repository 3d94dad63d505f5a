package dev.kiln.processor.write;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.palantir.javapoet.ClassName;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every type generated code names exists: the runtime's are named by string in {@link Names} (the
 * runtime must not be on the processor's class path), so this test, with the runtime on its class
 * path, is what makes a rename there fail the processor's own build rather than a user's compile.
 */
class RuntimeNamesTest {
  @Test
  void everyTypeGeneratedCodeNamesIsOnTheRuntimesClassPath() throws IllegalAccessException {
    List<ClassName> names = new ArrayList<>();
    for (Field f : Names.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == ClassName.class) {
        names.add((ClassName) f.get(null));
      }
    }
    assertTrue(names.size() > 15, () -> "found only " + names);
    for (ClassName name : names) {
      assertDoesNotThrow(() -> Class.forName(name.reflectionName()), name::toString);
    }
  }
}
