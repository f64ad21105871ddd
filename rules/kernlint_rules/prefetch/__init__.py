"""OpenMP prefetch directives and the directives around them (KL401–KL406): prefetches that can fault,
do nothing, or repeat for one cache line, and directives compilers reject or skip."""
