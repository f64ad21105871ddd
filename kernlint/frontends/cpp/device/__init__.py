"""Device code of a C/C++ file: which code a kernel reaches, its divergent branches and what their arms
cost, and sub-group block accesses."""
