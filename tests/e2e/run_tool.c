/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 */
#include "run_tool.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUN_TOOL_MAX_ARGS 24

int
run_tool(const char *const *prefix, unsigned prefix_count, const char *const *args)
{
   const char *argv[RUN_TOOL_MAX_ARGS + 1];
   unsigned n = 0;
   for (; n < prefix_count && n < RUN_TOOL_MAX_ARGS; n++)
      argv[n] = prefix[n];
   for (unsigned i = 0; args[i] && n < RUN_TOOL_MAX_ARGS; i++)
      argv[n++] = args[i];
   argv[n] = NULL;
   return run_tool_argv(argv);
}

int
run_tool_argv(const char *const *argv)
{
   printf("$");
   for (unsigned i = 0; argv[i]; i++)
      printf(" %s", argv[i]);
   printf("\n");
   fflush(stdout);
   pid_t pid = fork();
   if (pid == 0) {
      execv(argv[0], (char *const *)argv);
      _exit(127);
   }
   int status;
   if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
      return -1;
   return WEXITSTATUS(status);
}

const char *
run_tool_path(const char *dir, const char *name)
{
   static char buf[8][512];
   static unsigned next;
   char *p = buf[next++ % 8];
   snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
   return p;
}
