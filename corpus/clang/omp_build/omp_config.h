// kernlint-frontend: clang
// The offload level a build selects: a GPU target given with -D turns offload on. The files that
// include this header test OFFLOAD_LEVEL, which only the preprocessor knows.
#pragma once

#if defined(TARGET_PVC) || defined(TARGET_ATS)
#define OFFLOAD_LEVEL 2
#else
#define OFFLOAD_LEVEL 0
#endif
