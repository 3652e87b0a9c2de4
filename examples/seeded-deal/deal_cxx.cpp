// The same program compiled as C++: the headers must work from C++ too.
#include "deal.c"
