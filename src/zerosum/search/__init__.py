"""Search algorithms: the reference minimax and alpha-beta, and the engine.
They know nothing of any particular game or of printing."""
