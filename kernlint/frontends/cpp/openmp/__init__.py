"""`#pragma omp` in C/C++: constructs with the code they apply to, their device code for the dependence
analysis, how a region uses mapped variables, and directives written through `_Pragma` or macros."""
