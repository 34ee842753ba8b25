"""Built-in games, one module per game. Every module here is imported by the
registry on first use and registers its games with ``@register``."""
