/* Must NOT link: proves the heap guard fires. Built only by its test. */
#include <stdlib.h>

int main(void)
{
    void *p = malloc(16);
    free(p);
    return p == NULL;
}
