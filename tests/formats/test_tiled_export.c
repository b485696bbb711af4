#include "check.h"
int main(int argc, char **argv) { static const TessTestCase cases[] = {{"none", NULL}}; (void)cases; (void)argc; (void)argv; return 0; }
