// The README's project compiled (Kiln generated the model's classes) and trained on MXNet.
def log = new File(basedir, 'build.log').text
def generated = new File(basedir, 'target/generated-sources/annotations/demo/FashionMlpModel.java')
assert generated.isFile() : "Kiln generated no ${generated}"
assert log.contains('FashionMlpModel epoch 1/2  train loss') : 'no line for epoch 1 in build.log'
assert log.contains('FashionMlpModel epoch 2/2  train loss') : 'no line for epoch 2 in build.log'
def accuracy = (log =~ /test accuracy (0\.\d+)/)
assert accuracy.find() : 'no "test accuracy" line in build.log'
assert (accuracy.group(1) as double) > 0.75 : "test accuracy ${accuracy.group(1)} is too low"
return true
