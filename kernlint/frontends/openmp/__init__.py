"""The OpenMP directive language, shared by the C/C++ and Fortran front-ends: lexing, clause parsing,
associated-loop facts and the dependence lowering of directive regions."""
