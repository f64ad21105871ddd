/* kernlint: a minimal <stdalign.h> for libclang when no compiler resource directory is found. */
#ifndef _KERNLINT_STDALIGN_H
#define _KERNLINT_STDALIGN_H
#ifndef __cplusplus
#define alignas _Alignas
#define alignof _Alignof
#endif
#define __alignas_is_defined 1
#define __alignof_is_defined 1
#endif
