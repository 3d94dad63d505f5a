package bad;

import dev.kiln.annotations.*;

@Model
public interface EmptyModel {}
