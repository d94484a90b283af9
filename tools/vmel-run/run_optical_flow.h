/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 */
#ifndef VMEL_RUN_OPTICAL_FLOW_H
#define VMEL_RUN_OPTICAL_FLOW_H

/** vmel-run --optical-flow ...: the whole command; returns the exit status. */
int vmel_run_optical_flow(int argc, char **argv);

#endif
