/* Types and limits of the bounds-checked C functions (securec.h), as CANN's
 * toolkit ships them: errno_t and the largest buffer sizes the functions accept. */
#ifndef CANOPY_SECURECTYPE_H
#define CANOPY_SECURECTYPE_H

#include <stddef.h>

#ifndef errno_t
typedef int errno_t;
#endif

/* Largest destMax (and count) the functions accept; a larger one is ERANGE. */
#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif

#endif /* CANOPY_SECURECTYPE_H */
