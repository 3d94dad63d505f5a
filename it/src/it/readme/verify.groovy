// The README project compiled (Kiln generated the model's classes), ran its JUnit 5 tests
// (docs/testing.md's FashionMlpTest, under the Surefire its pom pins) and trained on MXNet.
def log = new File(basedir, 'build.log').text
def report = new File(basedir, 'target/surefire-reports/TEST-demo.FashionMlpTest.xml')
assert report.isFile() : "no test report ${report}: did Surefire run the JUnit 5 tests?"
def suite = new groovy.xml.XmlSlurper().parse(report)
assert suite.@tests.text() == '3' : "FashionMlpTest ran ${suite.@tests} tests, not 3"
assert suite.@failures.text() == '0' && suite.@errors.text() == '0' && suite.@skipped.text() == '0' :
    "FashionMlpTest: ${suite.@failures} failures, ${suite.@errors} errors, ${suite.@skipped} skipped"
assert log.contains('Tests run: 3, Failures: 0, Errors: 0, Skipped: 0') : 'no test summary in build.log'
def generated = new File(basedir, 'target/generated-sources/annotations/demo/FashionMlpModel.java')
assert generated.isFile() : "Kiln generated no ${generated}"
assert log.contains('FashionMlpModel epoch 1/2  train loss') : 'no line for epoch 1 in build.log'
assert log.contains('FashionMlpModel epoch 2/2  train loss') : 'no line for epoch 2 in build.log'
def accuracy = (log =~ /test accuracy (0\.\d+)/)
assert accuracy.find() : 'no "test accuracy" line in build.log'
assert (accuracy.group(1) as double) > 0.75 : "test accuracy ${accuracy.group(1)} is too low"

// What the project's run-time class path holds: no test framework, nothing of the processor's.
def classpath = new File(basedir, 'classpath.txt').text
assert !classpath.contains('junit') : "JUnit leaked onto the class path: ${classpath}"
assert !classpath.contains('javapoet') && !classpath.contains('kiln-processor') :
    "the processor leaked onto the class path: ${classpath}"

// The processor it used is one jar: JavaPoet relocated inside, and a POM that brings nothing.
def dir = new File(localRepositoryPath, 'dev/kiln/kiln-processor').listFiles().find { it.isDirectory() }
def pom = new groovy.xml.XmlSlurper().parse(new File(dir, "kiln-processor-${dir.name}.pom"))
pom.dependencies.dependency.each { d ->
  assert d.scope.text() in ['provided', 'test'] :
      "kiln-processor's POM brings ${d.groupId}:${d.artifactId} (${d.scope.text() ?: 'compile'})"
}
def names = new java.util.zip.ZipFile(new File(dir, "kiln-processor-${dir.name}.jar")).entries()
    .collect { it.name }
assert names.any { it.startsWith('dev/kiln/processor/shaded/javapoet/') } : 'JavaPoet not bundled'
assert !names.any { it.startsWith('com/palantir/') } : 'JavaPoet bundled without relocation'
assert names.contains('dev/kiln/annotations/Dense.class') : 'the annotations are not bundled'
return true
