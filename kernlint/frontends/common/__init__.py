"""Helpers every tree-sitter front-end shares: parsers and compiled queries, node helpers, preprocessing."""
