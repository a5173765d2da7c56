"""trixsim: a fast batched simulator and strategy-analysis tool for the card game Trix."""

__version__ = "0.1.0"
