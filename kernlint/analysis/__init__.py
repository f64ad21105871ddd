"""Analyses shared by every front-end: constant evaluation (and, later, work-item dependence)."""
