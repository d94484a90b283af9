/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * placeholder
 */
#include <stdio.h>
#include <stdlib.h>
#include "graph_text.h"
#include "spirv_text.h"
#include "test.h"
TEST_MAIN_STATE;
int
main(void)
{
   return test_done();
}
