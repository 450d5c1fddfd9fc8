#include <SDL.h>
/* malloc_trim: the platform layer hands freed memory back after a reload (glibc). */
#include <malloc.h>
