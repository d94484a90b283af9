/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Command-line tools run from a test (vmel-run's tests): the command echoed,
 * then its exit status.
 */
#ifndef VMEL_RUN_TOOL_H
#define VMEL_RUN_TOOL_H

/**
 * Runs prefix[0] with the arguments prefix[1..prefix_count-1] then args (NULL-terminated),
 * 24 in all at most; returns its exit status, or -1 when it did not exit.
 */
int run_tool(const char *const *prefix, unsigned prefix_count, const char *const *args);

/** Runs argv (NULL-terminated, argv[0] the program's path), printed first; its exit status,
 *  -1 when it did not exit. */
int run_tool_argv(const char *const *argv);

/** "dir/name" in one of 8 buffers used in turn. */
const char *run_tool_path(const char *dir, const char *name);

#endif
