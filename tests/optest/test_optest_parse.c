/* placeholder */
#include "test.h"
TEST_MAIN_STATE;
int main(void) { return test_done(); }
