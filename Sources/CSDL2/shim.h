#include <SDL.h>
/* malloc_trim: the platform layer hands freed memory back after a reload (glibc). */
#include <malloc.h>
/* statfs: the folder watcher tells network and FUSE file systems, which inotify misses. */
#include <sys/vfs.h>
