#include <stddef.h>
#include <gif_lib.h>
