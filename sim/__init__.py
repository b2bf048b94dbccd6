"""rummysim: bot-vs-bot simulation of rummy-family variants and house rules."""

__version__ = "0.1.0"
