/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel_help_doc: a tool's --help is its documentation (docs/decisions.md D54).
 *
 *   vmel_help_doc man TOOL NAME VERSION SUMMARY OUT.1
 *      runs TOOL --help (which must exit 0 and start with "usage: NAME") and writes the
 *      manual page OUT.1: NAME and SUMMARY, the usage lines as SYNOPSIS, the text paragraphs
 *      as DESCRIPTION and the indented ones (option lists) as OPTIONS, verbatim.
 *   vmel_help_doc check TOOL SOURCE.c...
 *      runs TOOL --help and checks that it exits 0 and names every option the sources
 *      compare arguments with: each string literal that is a whole option ("-o", "--json").
 *
 * A build-time host tool: exits 1 with a message on any failure.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define MAX_HELP (64u * 1024u)
#define MAX_SOURCE (4u * 1024u * 1024u)

/* The output of `TOOL --help` into a NUL-terminated buffer; NULL unless it exited 0. */
static char *
run_help(const char *tool)
{
   size_t cmd_len = strlen(tool) + 16;
   char *cmd = malloc(cmd_len);
   char *text = malloc(MAX_HELP + 1);
   if (!cmd || !text) {
      free(cmd);
      free(text);
      fprintf(stderr, "vmel_help_doc: out of memory\n");
      return NULL;
   }
   snprintf(cmd, cmd_len, "'%s' --help", tool);
   FILE *p = strchr(tool, '\'') ? NULL : popen(cmd, "r");
   free(cmd);
   if (!p) {
      fprintf(stderr, "vmel_help_doc: cannot run %s\n", tool);
      free(text);
      return NULL;
   }
   size_t n = fread(text, 1, MAX_HELP, p);
   text[n] = '\0';
   int status = pclose(p);
   if (n == MAX_HELP || status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "vmel_help_doc: %s --help did not exit 0 with under %u bytes\n", tool,
              MAX_HELP);
      free(text);
      return NULL;
   }
   return text;
}

/* A line of roff text: backslashes escaped, hyphens as \-, a leading dot or quote guarded. */
static void
roff_line(FILE *out, const char *s, size_t len)
{
   if (len && (s[0] == '.' || s[0] == '\''))
      fputs("\\&", out);
   for (size_t i = 0; i < len; i++) {
      if (s[i] == '\\')
         fputs("\\e", out);
      else if (s[i] == '-')
         fputs("\\-", out);
      else
         fputc(s[i], out);
   }
   fputc('\n', out);
}

static size_t
line_len(const char *s)
{
   const char *e = strchr(s, '\n');
   return e ? (size_t)(e - s) : strlen(s);
}

static const char *
next_line(const char *s)
{
   const char *e = strchr(s, '\n');
   return e ? e + 1 : s + strlen(s);
}

static int
write_man(const char *tool, const char *name, const char *version, const char *summary,
          const char *path)
{
   char *help = run_help(tool);
   if (!help)
      return 1;
   char prefix[128];
   snprintf(prefix, sizeof(prefix), "usage: %s", name);
   if (strncmp(help, prefix, strlen(prefix)) != 0) {
      fprintf(stderr, "vmel_help_doc: %s --help does not start with \"%s\"\n", tool, prefix);
      free(help);
      return 1;
   }
   FILE *out = fopen(path, "w");
   if (!out) {
      fprintf(stderr, "vmel_help_doc: cannot write %s\n", path);
      free(help);
      return 1;
   }
   fputs(".TH ", out);
   for (const char *c = name; *c; c++)
      fputc(toupper((unsigned char)*c), out);
   fprintf(out, " 1 \"\" \"vmel %s\" \"User Commands\"\n.SH NAME\n", version);
   fprintf(out, "%s \\- ", name);
   roff_line(out, summary, strlen(summary));

   /* SYNOPSIS: the lines up to the first blank one, without "usage: ". */
   fputs(".SH SYNOPSIS\n.nf\n", out);
   const char *s = help;
   while (*s && line_len(s) > 0) {
      size_t len = line_len(s);
      const char *t = s;
      if (strncmp(t, "usage: ", 7) == 0)
         t += 7;
      else
         while (*t == ' ' && (size_t)(t - s) < 7)
            t++;
      roff_line(out, t, len - (size_t)(t - s));
      s = next_line(s);
   }
   fputs(".fi\n", out);

   /* Paragraphs: text ones under DESCRIPTION, indented ones (options) under OPTIONS. */
   bool described = false, optioned = false;
   while (*s) {
      while (*s == '\n')
         s++;
      if (!*s)
         break;
      bool indented = s[0] == ' ';
      if (indented && !optioned) {
         fputs(".SH OPTIONS\n", out);
         optioned = true;
      } else if (!indented && !described && !optioned) {
         fputs(".SH DESCRIPTION\n", out);
         described = true;
      }
      fputs(indented ? ".PP\n.nf\n" : ".PP\n", out);
      while (*s && line_len(s) > 0) {
         roff_line(out, s, line_len(s));
         s = next_line(s);
      }
      if (indented)
         fputs(".fi\n", out);
   }
   fputs(".SH SEE ALSO\n"
         "vmel\\-run(1), vmel\\-info(1), vmel\\-as(1), vmel\\-lower(1), vmel\\-ops(1);\n"
         "the project's README and docs/ (the layers, their variables and decisions).\n",
         out);
   free(help);
   if (fclose(out) != 0) {
      fprintf(stderr, "vmel_help_doc: cannot write %s\n", path);
      return 1;
   }
   return 0;
}

static char *
read_source(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f) {
      fprintf(stderr, "vmel_help_doc: cannot read %s\n", path);
      return NULL;
   }
   char *text = malloc(MAX_SOURCE + 1);
   size_t n = text ? fread(text, 1, MAX_SOURCE, f) : 0;
   fclose(f);
   if (!text || n == MAX_SOURCE) {
      fprintf(stderr, "vmel_help_doc: %s: too large or out of memory\n", path);
      free(text);
      return NULL;
   }
   text[n] = '\0';
   return text;
}

static bool
option_char(char c)
{
   return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* Whether help names the option as a word of its own ("-o", "--json", "--input=..."). */
static bool
help_names(const char *help, const char *opt, size_t len)
{
   for (const char *p = strstr(help, "-"); p; p = strstr(p + 1, "-")) {
      if (strncmp(p, opt, len) != 0)
         continue;
      bool starts = p == help || !option_char(p[-1]);
      bool ends = !option_char(p[len]);
      if (starts && ends)
         return true;
   }
   return false;
}

static int
check_help(const char *tool, int nsources, char **sources)
{
   char *help = run_help(tool);
   if (!help)
      return 1;
   int missing = 0, found = 0;
   for (int i = 0; i < nsources; i++) {
      char *src = read_source(sources[i]);
      if (!src) {
         free(help);
         return 1;
      }
      /* String literals whose whole text is an option: "-x" or "--name-with-dashes". */
      for (const char *q = strchr(src, '"'); q; q = strchr(q + 1, '"')) {
         const char *o = q + 1;
         if (o[0] != '-')
            continue;
         size_t dashes = o[1] == '-' ? 2 : 1;
         size_t len = dashes;
         while (option_char(o[len]))
            len++;
         if (o[len] != '"' || len == dashes || !isalpha((unsigned char)o[dashes]))
            continue;
         found++;
         if (!help_names(help, o, len)) {
            fprintf(stderr, "vmel_help_doc: %s --help does not name %.*s (%s)\n", tool,
                    (int)len, o, sources[i]);
            missing++;
         }
         q = o + len; /* the closing quote */
      }
      free(src);
   }
   free(help);
   if (missing)
      return 1;
   printf("%s --help exits 0 and names all %d option literals of its sources\n", tool, found);
   return 0;
}

int
main(int argc, char **argv)
{
   if (argc == 7 && strcmp(argv[1], "man") == 0)
      return write_man(argv[2], argv[3], argv[4], argv[5], argv[6]);
   if (argc >= 4 && strcmp(argv[1], "check") == 0)
      return check_help(argv[2], argc - 3, argv + 3);
   fprintf(stderr, "usage: vmel_help_doc man TOOL NAME VERSION SUMMARY OUT.1\n"
                   "       vmel_help_doc check TOOL SOURCE.c...\n");
   return 2;
}
