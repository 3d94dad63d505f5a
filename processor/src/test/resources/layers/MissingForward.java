package layers;

import dev.kiln.annotations.Layer;

@Layer(input = {"batch", "in"}, output = {"batch", "in"}, forward = Missing.class)
public @interface MissingForward {}
