"""Strategy modules bundled with trixsim (loaded by name, e.g. ``random``, ``heuristic``)."""
