// The reader compiled as C++ (as a C++ game would include it), with the
// same checks as the C99 build.
#include "../../core/pack/tlv_reader.c"
#include "test_reader_standalone.c"
