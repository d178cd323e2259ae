/* The cell record shared by the harness and the kernel (read-only for the
   candidate: the array layout passed in and out is fixed). */
#include <stdint.h>

struct cell {
    int32_t temp;          /* the value the stencil updates */
    int32_t next;          /* scratch space the kernel may use */
    int32_t conductivity;  /* 0..256: how fast heat flows into this cell */
    int32_t flags;         /* not used by the kernel */
    char label[48];        /* not used by the kernel */
};
