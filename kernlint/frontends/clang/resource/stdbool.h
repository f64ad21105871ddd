/* kernlint: a minimal <stdbool.h> for libclang when no compiler resource directory is found. */
#ifndef _KERNLINT_STDBOOL_H
#define _KERNLINT_STDBOOL_H
#ifndef __cplusplus
#define bool _Bool
#define true 1
#define false 0
#endif
#define __bool_true_false_are_defined 1
#endif
