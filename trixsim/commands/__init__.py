"""The CLI's subcommands, one module per concern; each exposes ``register(group)``."""
